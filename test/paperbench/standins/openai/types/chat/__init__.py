from typing import Any

ChatCompletionMessageParam = dict[str, Any]
