from dataclasses import dataclass, field
from typing import Any


class TurnCompleter:
    @dataclass
    class Config:
        def build(self) -> "TurnCompleter":
            raise NotImplementedError

    @dataclass
    class Message:
        role: str
        content: Any

    @dataclass
    class Completion:
        input_conversation: list = field(default_factory=list)
        output_messages: list = field(default_factory=list)

    async def async_completion(self, conversation, **params):
        raise NotImplementedError
