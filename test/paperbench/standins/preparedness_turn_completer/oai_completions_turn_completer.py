import copy
from dataclasses import dataclass, field
from typing import Any

from .turn_completer import TurnCompleter

# Every call made, in order: {"model", "response_format" (the pydantic model's name or None), "messages"}.
RECORDED: list = []
_answerer = None
# What the judge is told about the model (SimpleJudge reads n_ctx and encoding_name from it).
N_CTX = 128_000


def set_answerer(fn):
    """fn(model, messages, response_format_name) -> (content, prompt_tokens, completion_tokens)."""
    global _answerer
    _answerer = fn


class OpenAICompletionsTurnCompleter(TurnCompleter):
    @dataclass
    class Config(TurnCompleter.Config):
        model: str = "gpt-4o-2024-08-06"
        response_format: Any = None

        def build(self):
            return OpenAICompletionsTurnCompleter(self.model, self.response_format)

    @dataclass
    class Completion(TurnCompleter.Completion):
        usage: Any = None

    def __init__(self, model, response_format):
        self.model = model
        self.response_format = response_format
        self.n_ctx = N_CTX
        self.encoding_name = "o200k_base"

    async def async_completion(self, conversation, **params):
        from openai.types import CompletionUsage

        fmt = self.response_format.__name__ if self.response_format is not None else None
        RECORDED.append({"model": self.model, "response_format": fmt, "messages": copy.deepcopy(list(conversation))})
        content, prompt_tokens, completion_tokens = _answerer(self.model, list(conversation), fmt)
        return OpenAICompletionsTurnCompleter.Completion(
            input_conversation=list(conversation),
            output_messages=[TurnCompleter.Message(role="assistant", content=content)],
            usage=CompletionUsage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, total_tokens=prompt_tokens + completion_tokens),
        )
