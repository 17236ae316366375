"""Reading a batch's requests from JSON Lines, refusing bad input by file and line.

A line is ``{"custom_id": ..., "params": {...}}``.  Nothing is half-read: the
whole file is checked before anything is stored, so a bad line 9,000 leaves no
batch behind.  A request's length in tokens, which the workers batch by and the
model is charged by, is ``params["tokens"]`` if given, else the words of
``params["prompt"]``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from solution.logfile import InputError

# As the providers' batch APIs: 1 to 64 letters, digits, "_" or "-".
CUSTOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
BATCH_ID = CUSTOM_ID


@dataclass(frozen=True)
class Submitted:
    custom_id: str
    params: dict[str, Any]
    tokens: int


TOKENS_LIMIT = 2**31 - 1  # a request's tokens fit a 32-bit column, in either store
# A batch's limits, of the order of the providers' (100,000 requests or 256 MB a batch):
# checked while the file is read, so a huge line or file is refused before it is in memory.
LINE_LIMIT = 1 << 20  # bytes a request line, at most: 1 MiB
FILE_LIMIT = 256 << 20  # bytes a batch file, at most: 256 MiB
REQUESTS_LIMIT = 100_000  # requests a batch, at most


def read_file(path: str) -> list[Submitted]:
    """The requests of the JSON Lines file at `path` (UTF-8, a byte-order mark allowed),
    read a line at a time: InputError, naming the line, for one over `LINE_LIMIT` bytes, a
    file over `FILE_LIMIT` or more than `REQUESTS_LIMIT` requests, before it is read whole."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > FILE_LIMIT:
                raise InputError(f"{path}: {size:,} bytes, over a batch's {FILE_LIMIT:,}")
            return read_requests(_lines(file, path), source=path)
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None


def _lines(file: BinaryIO, path: str) -> Iterator[str]:
    number = 0
    while chunk := file.readline(LINE_LIMIT + 2):  # the line, its CR LF, and one byte over
        if number == 0:
            chunk = chunk.removeprefix(b"\xef\xbb\xbf")
        for raw in chunk.splitlines():  # a lone CR ends a line too, as it always did
            number += 1
            if len(raw) > LINE_LIMIT:
                raise InputError(f"{path}:{number}: a line over {LINE_LIMIT:,} bytes")
            if number > REQUESTS_LIMIT:
                raise InputError(f"{path}:{number}: more than {REQUESTS_LIMIT:,} requests")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(f"{path}:{number}: not UTF-8 (byte {error.start + 1})") from None


def read_requests(lines: Iterable[str], *, source: str) -> list[Submitted]:
    """Every request of `lines`, in order; InputError naming `source` and the line otherwise."""
    requests: list[Submitted] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        where = f"{source}:{number}"
        if not line.strip():
            raise InputError(f"{where}: empty line (one JSON object a line)")
        request = _parse(line, where)
        if request.custom_id in first_line:
            raise InputError(
                f"{where}: duplicate custom_id {request.custom_id!r}"
                f" (first on line {first_line[request.custom_id]})"
            )
        first_line[request.custom_id] = number
        requests.append(request)
    if not requests:
        raise InputError(f"{source}: no requests")
    return requests


def check_batch_id(batch_id: str) -> str:
    if not BATCH_ID.fullmatch(batch_id):
        raise InputError(f"batch id {batch_id!r}: 1 to 64 letters, digits, '_' or '-'")
    return batch_id


def digest(requests: list[Submitted]) -> str:
    """The content of a batch, so a resubmission can be told from a different batch."""
    canonical = json.dumps([[r.custom_id, r.params] for r in requests], sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _parse(line: str, where: str) -> Submitted:
    try:
        value = json.loads(line, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise InputError(f"{where}: not JSON ({error.msg} at column {error.colno})") from None
    except ValueError as error:  # NaN, Infinity, a key twice: JSON's parsers disagree on them
        raise InputError(f"{where}: not JSON ({error})") from None
    if not isinstance(value, dict) or set(value) != {"custom_id", "params"}:
        raise InputError(f"{where}: expected an object with exactly custom_id and params")
    custom_id, params = value["custom_id"], value["params"]
    if not isinstance(custom_id, str) or not CUSTOM_ID.fullmatch(custom_id):
        raise InputError(f"{where}: custom_id {custom_id!r}: 1 to 64 letters, digits, '_' or '-'")
    if not isinstance(params, dict):
        raise InputError(f"{where}: params must be an object")
    return Submitted(custom_id, params, _tokens(params, where))


def _tokens(params: dict[str, Any], where: str) -> int:
    tokens, prompt = params.get("tokens"), params.get("prompt")
    if tokens is not None:
        if type(tokens) is not int or not 1 <= tokens <= TOKENS_LIMIT:
            raise InputError(
                f"{where}: params.tokens must be an integer from 1 to {TOKENS_LIMIT:,},"
                f" got {tokens!r}"
            )
        return tokens
    if isinstance(prompt, str):
        return max(1, len(prompt.split()))
    raise InputError(f"{where}: params needs a prompt (a string) or tokens (an integer >= 1)")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the key {twice!r} twice in one object")
    return dict(pairs)
