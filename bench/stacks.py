"""Summarise py-spy's collapsed stacks (`bench/load.py --py-spy FILE`): the share of samples in each function,
inclusive (anywhere on the stack) and self (on top).

    python bench/stacks.py prof.txt [--top 40]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

LINE_NUMBER = re.compile(r":\d+\)")


def summarise(path: Path) -> tuple[int, Counter[str], Counter[str]]:
    inclusive: Counter[str] = Counter()
    on_top: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        frames = [LINE_NUMBER.sub(")", frame) for frame in stack.split(";")]
        for frame in set(frames):
            inclusive[frame] += samples
        on_top[frames[-1]] += samples
    return total, inclusive, on_top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    total, inclusive, on_top = summarise(args.file)
    print(f"{total} samples")
    for title, counter in (("inclusive", inclusive), ("self", on_top)):
        print(f"== {title}")
        for frame, samples in counter.most_common(args.top):
            print(f"{samples / total:6.1%}  {frame[:140]}")


if __name__ == "__main__":
    main()
