#!/usr/bin/env python3
"""Makes a class of N submissions of one lab from a sample folder, for grading benchmarks.

    scripts/make-lab-class.py SAMPLE_FOLDER N OUT_FOLDER

Student k hands in one of the folder's projects (taken in turn) with block-size variable B set
to one of 64 ... 1024 (in turn, after the projects), so a class holds different kernels and
block sizes, and some students hand in the same work as others: the ranking must show those as
ties. Each submission is OUT_FOLDER/NN-student/ with the project's source and its .cuwb.
"""
import json
import shutil
import sys
from pathlib import Path

BLOCK_SIZES = [64, 128, 256, 512, 1024]


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    sample, count, out = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    projects = sorted(sample.glob("*.cuwb"))
    if not projects:
        print(f"make-lab-class: {sample} holds no .cuwb project", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        chosen = projects[k % len(projects)]
        block = BLOCK_SIZES[(k // len(projects)) % len(BLOCK_SIZES)]
        project = json.loads(chosen.read_text())
        for variable in project.get("launch", {}).get("variables", []):
            if variable.get("name") == "B":
                variable["value"] = str(block)
        project["name"] = f"student {k + 1:02d}: {project.get('name', chosen.stem)}, B = {block}"
        folder = out / f"{k + 1:02d}-student"
        folder.mkdir(exist_ok=True)
        source = sample / project["source"]["path"]
        shutil.copyfile(source, folder / source.name)
        (folder / chosen.name).write_text(json.dumps(project, indent=4) + "\n")
    print(f"{count} submissions of {sample.name} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
