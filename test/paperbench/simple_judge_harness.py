"""Runs PaperBench's own SimpleJudge (from PAPERBENCH_SRC_DIR) on the parity test's fixtures, with
the stand-ins of standins/ (the completer answers from each fixture's script and records every
call). Reads {"fixtures": [...]} on stdin, writes per fixture the calls made and the graded tree
(`GradedTaskNode.to_dict()`) as JSON on stdout. Only the wiring is written here: every prompt,
budget, walk and aggregation is PaperBench's code."""
import asyncio
import copy
import dataclasses
import json
import logging
import re
import sys
import types
from datetime import datetime, timezone
from pathlib import Path

import pb_standins

pb_standins.install()

# paperbench.rubric.tasks imports these helpers (an OpenAI client, docker, blobfile...) for rubric
# editing only; the judge never calls them.
for name, attrs in {
    "paperbench.utils": ["oai_completion_with_retry"],
    "paperbench.rubric.utils": ["get_openai_client", "random_id"],
}.items():
    module = types.ModuleType(name)
    for attr in attrs:
        setattr(module, attr, lambda *a, **k: (_ for _ in ()).throw(RuntimeError(f"{attr} is stubbed")))
    sys.modules[name] = module

import preparedness_turn_completer.oai_completions_turn_completer as occ  # noqa: E402
import paperbench.judge.base as pb_base  # noqa: E402
from paperbench.judge.simple import ParsedJudgeResponseFloat, ParsedJudgeResponseInt, SimpleJudge  # noqa: E402
from paperbench.rubric.tasks import TaskNode  # noqa: E402


class _WrappedLogger:
    """structlog's wrap_logger result as grade_leaf uses it: `._logger` is the stdlib logger."""

    def __init__(self, logger):
        self._logger = logger

    def __getattr__(self, name):
        return lambda *a, **k: None


pb_base.wrap_logger = _WrappedLogger

TAG = re.compile(r"\[K\d+\]")


def key_of(messages):
    """The criterion's tag: the first tag of the last message that has one, preceding criteria (` -> ` lines) skipped."""
    for message in reversed(messages):
        for line in str(message["content"]).split("\n"):
            if line.startswith(" -> "):
                continue
            m = TAG.search(line)
            if m:
                return m.group(0)
    return None


def strict_schema(schema):
    """openai-python's to_strict_json_schema (_ensure_strict_json_schema) for a flat pydantic model."""
    schema = copy.deepcopy(schema)
    if schema.get("type") == "object" and "additionalProperties" not in schema:
        schema["additionalProperties"] = False
    props = schema.get("properties")
    if isinstance(props, dict):
        schema["required"] = list(props.keys())
    return schema


def response_format_param(model):
    """openai-python's type_to_response_format_param(model)."""
    return {"type": "json_schema", "json_schema": {"schema": strict_schema(model.model_json_schema()), "name": model.__name__, "strict": True}}


def run_fixture(fx):
    occ.N_CTX = fx["nCtx"]
    occ.RECORDED.clear()
    ranking_prompt = None
    script = fx["script"]

    def answer(model, messages, fmt):
        key = key_of(messages)
        purpose = "parse" if fmt is not None else ("rank" if messages[0]["content"] == ranking_prompt else "grade")
        entry = script.get(key or "", {})
        content = entry.get(purpose)
        if content is None:
            content = script["_default"][purpose].replace("{key}", key or "")
        n = int(key[2:-1]) if key else 0
        usage = {"rank": 0, "grade": 1, "parse": 2}[purpose]
        return content, 1000 + 10 * n + usage, 50 + n + usage

    from paperbench.judge.constants import FILE_RANKING_PROMPT

    ranking_prompt = FILE_RANKING_PROMPT
    occ.set_answerer(answer)

    now = datetime.fromtimestamp(fx["nowSeconds"], tz=timezone.utc)

    class FixedNow(datetime):
        @classmethod
        def now(cls, tz=None):
            return now

    pb_base.datetime = FixedNow

    with open(fx["rubricPath"]) as f:
        rubric = TaskNode.from_dict(json.load(f))
    if fx["codeOnly"]:
        # grade.run_judge: `code_only() or root.set_task_category("Code Development").set_sub_tasks([])`;
        # that call order raises on a root with children (a non-leaf may not have a category), so the
        # root-as-one-leaf it means is built in one step.
        rubric = rubric.code_only() or dataclasses.replace(rubric, sub_tasks=[], task_category="Code Development")
    judge = SimpleJudge(
        paper_path=Path(fx["paperMdPath"]),
        rubric=rubric,
        addendum=fx["addendum"],
        judge_addendum=fx["judgeAddendum"],
        submission_dir=Path(fx["submissionDir"]),
        paper_md=Path(fx["paperMdPath"]),
        completer_config=occ.OpenAICompletionsTurnCompleter.Config(model=fx["model"]),
        int_completer_config=occ.OpenAICompletionsTurnCompleter.Config(model=fx["parseModel"], response_format=ParsedJudgeResponseInt),
        float_completer_config=occ.OpenAICompletionsTurnCompleter.Config(model=fx["parseModel"], response_format=ParsedJudgeResponseFloat),
        max_depth=fx["maxDepth"] if fx["maxDepth"] is not None else 999,
        code_only=fx["codeOnly"],
    )
    tree = asyncio.run(judge.judge())
    calls = []
    for call in occ.RECORDED:
        purpose = "parse" if call["response_format"] else ("rank" if call["messages"][0]["content"] == ranking_prompt else "grade")
        calls.append({"key": key_of(call["messages"]), "purpose": purpose, "model": call["model"], "response_format": call["response_format"], "messages": call["messages"]})
    return {"name": fx["name"], "calls": calls, "tree": tree.to_dict()}


def main():
    data = json.loads(sys.stdin.read())
    out = {
        "fixtures": [run_fixture(fx) for fx in data["fixtures"]],
        "responseFormats": {m.__name__: response_format_param(m) for m in (ParsedJudgeResponseInt, ParsedJudgeResponseFloat)},
    }
    sys.stdout.write(json.dumps(out))


main()
