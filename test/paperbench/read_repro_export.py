"""
Reads the studio's reproduction exports with PaperBench's own code (PAPERBENCH_SRC_DIR on the
PYTHONPATH, its vendored drain3 too, test/paperbench/standins for what is not installed):

  python3 read_repro_export.py <submission_executed_metadata.json> <submission_executed.tar.gz> <work dir>

1. `ReproductionMetadata.from_dict` (paperbench/nano/structs.py) loads the metadata export.
2. The executed submission is placed as `put_submission_in_computer` places one (`tar -xzf` into a
   folder, then its `submission/` is the submission), and a `Judge` reads it with its own
   `read_repro_files_content` (paperbench/judge/base.py: reproduce.sh, the reduced reproduce.log,
   and `int()` of reproduce.log.creation_time).

Prints what PaperBench read, as JSON, for the test to check.
"""

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import repro_export_standins  # noqa: F401  (before any PaperBench import)

from paperbench.judge.base import Judge
from paperbench.nano.structs import ReproductionMetadata


class ReadingJudge(Judge):
    """The base Judge with nothing to grade: only its reading of the submission runs."""

    @property
    def judge_type(self) -> str:
        return "reading"

    async def grade_leaf(self, task):
        raise NotImplementedError

    async def grade_subtree(self, task):
        raise NotImplementedError


def main() -> None:
    metadata_path, archive_path, work = (Path(a) for a in sys.argv[1:4])
    metadata = ReproductionMetadata.from_dict(json.loads(metadata_path.read_text(encoding="utf-8")))

    extract_dir = work / "pb_extract"
    extract_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-xzf", str(archive_path), "-C", str(extract_dir)], check=True)
    submission = extract_dir / "submission"

    judge = ReadingJudge(
        paper_path=work / "paper.pdf",
        rubric=None,
        addendum=None,
        judge_addendum=None,
        submission_dir=submission,
    )
    asyncio.run(judge.read_repro_files_content())

    print(
        json.dumps(
            {
                "metadata": {
                    "is_valid_git_repo": metadata.is_valid_git_repo,
                    "repro_script_exists": metadata.repro_script_exists,
                    "timedout": metadata.timedout,
                    "repro_log": metadata.repro_log,
                    "retried_results": [
                        {"repro_execution_time": r.repro_execution_time, "timedout": r.timedout, "repro_log": r.repro_log}
                        for r in metadata.retried_results
                    ],
                    "repro_execution_time": metadata.repro_execution_time,
                    "executed_submission": metadata.executed_submission,
                },
                "judge": {
                    "reproduce_sh": judge.reproduce_sh_content,
                    "reproduce_log": judge.reproduce_log_content,
                    "creation_time": int(judge.reproduction_log_creation_time_utc.timestamp()),
                },
                "files": sorted(str(p.relative_to(submission)) for p in submission.rglob("*") if p.is_file()),
            }
        )
    )


if __name__ == "__main__":
    main()
