"""Stand-in for tiktoken: o200k_base through the project's own tokenizer (gpt-tokenizer), in a
Node child process over a JSON-lines pipe (tiktoken_bridge.mjs). `decode` joins the tokens' bytes
and decodes them with errors="replace", as tiktoken's Encoding.decode does."""
import base64
import json
import os
import subprocess
import threading

_BRIDGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tiktoken_bridge.mjs")


class _Bridge:
    def __init__(self):
        self.proc = subprocess.Popen(
            ["node", _BRIDGE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=os.path.dirname(_BRIDGE),
        )
        self.lock = threading.Lock()

    def ask(self, request):
        with self.lock:
            self.proc.stdin.write((json.dumps(request) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the tiktoken bridge (node) exited")
        return json.loads(line)


_bridge = None


class Encoding:
    def __init__(self, name):
        if name != "o200k_base":
            raise ValueError(f"the tiktoken stand-in has only o200k_base, not {name}")
        self.name = name

    def encode(self, text, *, allowed_special=frozenset(), disallowed_special="all"):
        # SimpleJudge always passes disallowed_special=(): special-token text is plain text.
        if disallowed_special != ():
            raise ValueError("the tiktoken stand-in encodes with disallowed_special=() only")
        global _bridge
        if _bridge is None:
            _bridge = _Bridge()
        # Lone surrogates cannot cross as UTF-8 JSON; json.dumps escapes them and JSON.parse keeps them.
        return _bridge.ask({"op": "encode", "text": text})["tokens"]

    def decode(self, tokens, errors="replace"):
        global _bridge
        if _bridge is None:
            _bridge = _Bridge()
        data = base64.b64decode(_bridge.ask({"op": "decode", "tokens": list(tokens)})["bytes"])
        return data.decode("utf-8", errors=errors)


def get_encoding(name):
    return Encoding(name)
