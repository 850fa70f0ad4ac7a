"""`willow verify`: replay a transcript through an observer session and report (SPEC 7.6).

Reads transcript files one bounded line at a time (`lines`); the checks are the pure core's
(`audit`). A report has one of four verdicts (`outcome`) and is printed as a hand history
(`text`), one line (`text.report_brief`) or one JSON object (`json_report`), and that object
as a web page (`html`, imported only when asked for); `batch` verifies several files, in worker
processes if asked.
"""

from p2pwillow.verify.audit import (
    VerifyInterrupted,
    split_lines,
    verify_file,
    verify_stream,
    verify_transcript,
)
from p2pwillow.verify.batch import Outcome, check_all, check_one
from p2pwillow.verify.history import HandHistory
from p2pwillow.verify.json_report import (
    BUG,
    bug_json,
    bug_object,
    json_line,
    report_json,
    report_object,
)
from p2pwillow.verify.outcome import (
    EXIT_CODES,
    EXIT_INVALID,
    EXIT_NOT_CLOSED,
    EXIT_UNREADABLE,
    EXIT_VALID,
    Stack,
    TranscriptUnreadable,
    Verdict,
    VerifyError,
    VerifyReport,
    worst,
)
from p2pwillow.verify.text import LEGEND, report_brief, report_text

__all__ = [
    "BUG",
    "EXIT_CODES",
    "EXIT_INVALID",
    "EXIT_NOT_CLOSED",
    "EXIT_UNREADABLE",
    "EXIT_VALID",
    "LEGEND",
    "HandHistory",
    "Outcome",
    "Stack",
    "TranscriptUnreadable",
    "Verdict",
    "VerifyError",
    "VerifyInterrupted",
    "VerifyReport",
    "bug_json",
    "bug_object",
    "check_all",
    "check_one",
    "json_line",
    "report_brief",
    "report_json",
    "report_object",
    "report_text",
    "split_lines",
    "verify_file",
    "verify_stream",
    "verify_transcript",
    "worst",
]
