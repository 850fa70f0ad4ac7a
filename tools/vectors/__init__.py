"""Test-vector modules: one per primitive or protocol layer, each writing one file in
protocol/vectors/ (SPEC 4.8, 5.11).

The contract every module tools/vectors/<name>.py follows (`common` is the shared helper module
and is not a vector module):

- `FILE_NAME: str` -- the file it owns, e.g. "dleq.json", written to protocol/vectors/FILE_NAME.
- `generate() -> dict` -- the whole JSON document, deterministic (all randomness from
  `common.seeded_rng`), in the Wycheproof layout:
  {"schema": str, "algorithm": str, "header": str, "notes": {flag: description},
  "numberOfTests": N, "testGroups": [{"type": str, ...group parameters...,
  "tests": [{"tcId": int, "comment": str, "flags": [flag...], "result": "valid"|"invalid",
  ...fields, bytes as lowercase hex...}]}]}. tcIds are unique within a file (1..N);
  `common.document` numbers them and counts N.
- `check(group: dict, test: dict) -> None` -- replays one case with the project's code. For a
  valid case it returns normally (a mismatch raises AssertionError). For an invalid case it must
  raise one of the module's `ERRORS` and nothing else.
- `ERRORS: dict[str, type[Exception]]` (optional, default `common.ERRORS`: `DecodeError` and
  `InvalidProof` of p2pwillow.crypto) -- the exceptions its invalid cases may raise, by the name
  their `"error"` field gives: the ledger's file raises `RemoteProtocolError`, the mental-poker
  file the errors of p2pwillow.mental (and `DecodeError` for a value that does not decode).

Invalid cases carry `"error"`, the stage that must reject them (decoding a field, or verifying);
in ledger.json `"error": "RemoteProtocolError"` with, where fixed, the SPEC 6.11 `"reason"`. The
loader (tests/test_vectors.py) runs every case of every protocol/vectors/*.json through the module
whose FILE_NAME matches and asserts: result is "invalid" iff check raised; the exception is one
of the module's ERRORS; and, where the case names an "error", that it is that exception.
`python3 -m tools.gen_vectors` writes every file; with `--check` it exits 1, naming each file
that differs from what it would write.
"""
