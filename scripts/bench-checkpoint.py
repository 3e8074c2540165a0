#!/usr/bin/env python3
"""Checkpoint of 10 changed documents: `cairn checkpoint` against `git add <paths> && git commit`.

Builds a store of N documents shaped like seed 000's progress (exam attempts, books of 24
sections, 40 in-progress exams, the exam summary), deterministically from a seed; copies it
into a plain git repository; then, in alternating rounds, changes the same 10 documents in
both and times only the commit step: `cairn checkpoint` on one side, `git add <the 10
paths> && git commit -q` on the other. Two workloads:

- large collections: 5 new attempts and 5 books with a section marked, in the two
  collections that hold nearly all N documents (git rewrites a changed folder's whole tree,
  so their size counts);
- small collections: 10 of the 40 in-progress exams, whatever N is. Every figure is a
whole-process wall time; the table gives median, min and max over the rounds, and the
ratio git / cairn of the medians. git's automatic gc is off on both sides (it would pack in
the background, in the middle of the measurements).

    python3 scripts/bench-checkpoint.py                 # 1,000 and 10,000 documents
    python3 scripts/bench-checkpoint.py 10000 100000    # any sizes
"""

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROUNDS = 15
CHANGED = 10
IN_PROGRESS = 40


def canonical(value):
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, separators=(",", ": ")) + "\n"


def attempt(number, rng):
    attempt_id = f"attempt-{1730000000000 + number}"
    questions = [f"Q{10000 + rng.randrange(900)}" for _ in range(24)]
    return attempt_id, {
        "schemaVersion": 1, "attemptId": attempt_id, "examId": f"practice-{number % 40}",
        "status": "passed" if rng.random() < 0.7 else "failed", "score": rng.randrange(101),
        "totalQuestions": 24, "correctAnswers": rng.randrange(25), "timeSpentInSeconds": rng.randrange(2700),
        "questionIds": questions, "answers": {q: [str(rng.randrange(4))] for q in questions},
        "flaggedQuestions": questions[:rng.randrange(3)], "clientCreatedAt": 1730000000000 + number,
    }


def book(number, rng, stamp=0):
    sections = {f"s{s:02d}": {"completed": rng.random() < 0.5, "updatedAt": 1730000000000 + s + stamp} for s in range(24)}
    done = [k for k, v in sections.items() if v["completed"]]
    return f"book-{number}", {
        "schemaVersion": 1, "bookId": f"book-{number}", "sections": sections,
        "completedCount": len(done), "lastSectionId": done[-1] if done else None,
        "updatedAt": 1730000000000 + stamp,
    }


def in_progress(number, rng, stamp=0):
    questions = [f"Q{10000 + rng.randrange(900)}" for _ in range(24)]
    return {
        "schemaVersion": 1, "examId": f"practice-{number}", "attemptId": f"attempt-{1740000000000 + number}",
        "questionIds": questions, "answers": {q: [str(rng.randrange(4))] for q in questions[:rng.randrange(24)]},
        "currentQuestionIndex": rng.randrange(24), "timeRemaining": rng.randrange(2700),
        "clientUpdatedAt": 1740000000000 + stamp,
    }


def write(root, relative, value):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(canonical(value))


def run(arguments, **options):
    return subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, **options)


def timed(arguments, **options):
    start = time.perf_counter()
    run(arguments, **options)
    return time.perf_counter() - start


def build_store(cairn, home, count, seed):
    env = dict(os.environ, CAIRN_HOME=home)
    run([cairn, "init", "u1"], env=env)
    store = os.path.join(home, "u1")
    rng = random.Random(seed)
    attempts = count * 6 // 10
    write(store, "users/u1/progress/exam.json", {"schemaVersion": 1, "examSummaries": {}, "favorites": {}})
    for number in range(IN_PROGRESS):
        write(store, f"users/u1/examInProgress/practice-{number}.json", in_progress(number, rng))
    for number in range(attempts):
        attempt_id, value = attempt(number, rng)
        write(store, f"users/u1/examAttempts/{attempt_id}.json", value)
    for number in range(count - attempts - 1 - IN_PROGRESS):
        book_id, value = book(number, rng)
        write(store, f"users/u1/books/{book_id}.json", value)
    # Bulk import through plain git, then one checkpoint so the store's own index is in place.
    run(["git", "-C", store, "add", "-A"])
    run(["git", "-C", store, "-c", "gc.auto=0", "commit", "-q", "-m", "bulk import"])
    run([cairn, "checkpoint", "--scan"], env=env)
    return store, env, attempts


def changes_in_large(round_number, attempts, books, rng):
    changes = []
    for k in range(CHANGED // 2):
        attempt_id, value = attempt(attempts + round_number * CHANGED + k, rng)
        changes.append((f"users/u1/examAttempts/{attempt_id}", value))
        book_id, value = book(rng.randrange(books), rng, stamp=round_number + 1)
        changes.append((f"users/u1/books/{book_id}", value))
    return changes


def changes_in_small(round_number, attempts, books, rng):
    return [(f"users/u1/examInProgress/practice-{number}", in_progress(number, rng, stamp=round_number + 1))
            for number in rng.sample(range(IN_PROGRESS), CHANGED)]


def measure(cairn, count, workload, seed=1):
    work = tempfile.mkdtemp(prefix="cairn-bench-")
    try:
        home = os.path.join(work, "home")
        store, env, attempts = build_store(cairn, home, count, seed)
        peer = os.path.join(work, "peer")
        shutil.copytree(store, peer, symlinks=True)
        shutil.rmtree(os.path.join(peer, ".git", "cairn"))
        run(["git", "-C", peer, "read-tree", "HEAD"])  # a plain, whole index, as git keeps it
        run(["git", "-C", peer, "update-index", "--refresh"], stderr=subprocess.DEVNULL)
        rng = random.Random(seed + 1)
        timings = {"cairn": [], "git": []}
        for round_number in range(ROUNDS):
            changes = workload(round_number, attempts, count - attempts - 1 - IN_PROGRESS, rng)
            for path, value in changes:
                subprocess.run([cairn, "put", path], input=json.dumps(value).encode(), env=env, check=True)
                write(peer, path + ".json", value)
            pair = [("cairn", lambda: timed([cairn, "checkpoint"], env=env)),
                    ("git", lambda: timed(["git", "-C", peer, "add", *[p + ".json" for p, _ in changes]])
                     + timed(["git", "-C", peer, "-c", "gc.auto=0", "commit", "-q", "-m", f"round {round_number}"]))]
            for name, action in (pair if round_number % 2 == 0 else reversed(pair)):
                timings[name].append(action())
        same = subprocess.run(["git", "-C", store, "rev-parse", "HEAD^{tree}"], capture_output=True, text=True).stdout == \
            subprocess.run(["git", "-C", peer, "rev-parse", "HEAD^{tree}"], capture_output=True, text=True).stdout
        if not same:
            sys.exit("the two repositories ended with different trees: the comparison is void")
        return timings
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    sizes = [int(argument) for argument in sys.argv[1:]] or [1000, 10000]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "cairn"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    binary = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=root, check=True,
                            capture_output=True, text=True).stdout.strip() + "/cairn"
    print(f"checkpoint of {CHANGED} documents, {ROUNDS} rounds, wall ms: median (min–max)")
    print(f"{'documents':>10} | {'changed documents in':>21} | {'cairn checkpoint':>18} | {'git add && commit':>18} | git/cairn")
    for count in sizes:
        for label, workload in (("large collections", changes_in_large), ("small collections", changes_in_small)):
            timings = measure(binary, count, workload)
            cells = []
            for name in ("cairn", "git"):
                values = [t * 1000 for t in timings[name]]
                cells.append(f"{statistics.median(values):6.1f} ({min(values):.0f}–{max(values):.0f})")
            ratio = statistics.median(timings["git"]) / statistics.median(timings["cairn"])
            print(f"{count:>10,} | {label:>21} | {cells[0]:>18} | {cells[1]:>18} | {ratio:5.1f}×", flush=True)


if __name__ == "__main__":
    main()
