#!/usr/bin/env python3
"""Prints the commands of a Markdown file's shell code blocks, one a line, as a shell would read
them: comments dropped, each command of an && chain on its own line, words quoted again.

  readme_commands.py README.md

A shell code block is a fence opened with ```sh, ```bash or ```shell, indented or not (a list
item's); blocks of other languages or none (sample output) are not commands.
"""
import re
import shlex
import sys

OPEN = re.compile(r"^\s*```(sh|bash|shell)\s*$")
CLOSE = re.compile(r"^\s*```\s*$")


def main():
    with open(sys.argv[1], encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    inside = False
    for line in lines:
        if not inside:
            inside = bool(OPEN.match(line))
            continue
        if CLOSE.match(line):
            inside = False
            continue
        words = shlex.split(line, comments=True)
        command = []
        for word in words + ["&&"]:
            if word == "&&":
                if command:
                    print(shlex.join(command))
                command = []
            else:
                command.append(word)
    if inside:
        sys.exit(f"{sys.argv[1]}: a code block is not closed")


if __name__ == "__main__":
    main()
