from dataclasses import dataclass

from . import chat  # noqa: F401


@dataclass
class CompletionUsage:
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int = 0
