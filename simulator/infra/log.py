"""Logging for the command line: loguru to the current standard error, WARNING by default
(CRMARENA_LOG_LEVEL=DEBUG for more). Model clients log retries and give-ups; never keys: every
record's message (for any sink) and every line written (tracebacks included) is redacted of the
run's secrets (simulator.infra.secrets)."""

from __future__ import annotations

import os
import sys
import warnings
from typing import TYPE_CHECKING

from simulator.infra.secrets import redact

if TYPE_CHECKING:
    from loguru import Message, Record

_configured = False


def quiet_unless_configured() -> None:
    """Silence the package's log records unless a command line set up logging already."""
    if not _configured:
        from loguru import logger

        logger.disable("simulator")


def _redact_message(record: Record) -> None:
    record["message"] = redact(record["message"])


def _to_stderr(text: Message) -> None:
    sys.stderr.write(redact(text))


def setup_logging(level: str | None = None) -> None:
    """Send loguru's records to whatever `sys.stderr` is when each record is written, and
    silence pydantic's serializer warning that autogen triggers on every structured reply."""
    warnings.filterwarnings("ignore", message="Pydantic serializer warnings", category=UserWarning)
    global _configured
    from loguru import logger

    logger.remove()
    logger.enable("simulator")
    _configured = True
    level = (level or os.environ.get("CRMARENA_LOG_LEVEL", "WARNING")).upper()
    logger.configure(patcher=_redact_message)
    logger.add(_to_stderr, level=level, format="{time:HH:mm:ss} {level} {name}: {message}")
