# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Simulator-bridge benchmark: codec decode rates against bare struct.unpack / json.loads and the
worst-case datagrams against typical ones, then the relay's added latency and lossless throughput
against a direct socket pair, from one run.

Run: .venv/bin/python benchmarks/bench_bridge.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _codec_bench import run_codec_benchmarks
from _relay_bench import run_relay_benchmarks


def main() -> int:
    print("== Codecs: decode rate against the bare unpack of the same bytes; worst-case datagrams ==")
    for line in run_codec_benchmarks():
        print(line)
    print()
    print("== Relay: added latency and throughput on loopback ==")
    for line in run_relay_benchmarks():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
