"""Stand-in for openai (types only): PaperBench's judge imports names from it; the parity test's
completer stand-in answers instead of the network, so nothing here is ever called."""
from . import types  # noqa: F401


class OpenAIError(Exception):
    pass


class APIError(OpenAIError):
    pass


class RateLimitError(APIError):
    pass


class OpenAI:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("the openai stand-in makes no calls")
