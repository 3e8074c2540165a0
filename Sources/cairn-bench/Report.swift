import Foundation

/// The benchmark's results as Markdown: printed, and written to BENCHMARKS.md.
struct Report {
    var machine: Machine
    var command: String
    var rounds: Int
    var comparisons: [Comparison] = []
    var growths: [Growth] = []
    var figures: [(String, String)] = []
    /// The history workload's rows (figure, Cairn, git), and how many checkpoints it made.
    var history: [HistoryFigures.Row] = []
    var historyCheckpoints = 0
    var notes: [String] = []

    var markdown: String {
        var lines = ["# Benchmarks", ""]
        lines += machine.lines
        lines += [
            "",
            "Made by `\(command)`. Each figure is a median with the smallest and largest in",
            "brackets, over \(rounds) rounds in which Cairn and its peer take turns (one goes first in",
            "even rounds, the other in odd ones), on identical data generated from a fixed seed.",
            "\"× faster\" is the peer's median divided by Cairn's: above 1, Cairn is faster.",
            "Absolute times vary with the machine and its load; the ratios are what to compare.",
            "",
            "| workload | documents | Cairn side | peer side | Cairn | peer | × faster | target | verdict |",
            "|---|---:|---|---|---:|---:|---:|---|---|",
        ]
        for row in comparisons {
            lines.append("| \(row.workload) | \(row.documents.formatted()) | \(row.cairnSide) | \(row.peerSide) | "
                + "\(row.cairn.summary) \(row.unit) | \(row.peer.summary) \(row.unit) | "
                + "\(Samples.format(row.speedup))× | \(row.target.text) | \(row.verdict) |")
        }
        if !growths.isEmpty {
            lines += ["", "## Growth with the store's size", "",
                      "| workload | from | to | Cairn grew | peer grew | target | |",
                      "|---|---:|---:|---:|---:|---|---|"]
            for growth in growths {
                lines.append("| \(growth.workload) | \(growth.from.formatted()) | \(growth.to.formatted()) | "
                    + "\(Samples.format(growth.cairn))× | \(Samples.format(growth.peer))× | ≤ \(Samples.format(growth.limit))× | \(growth.verdict) |")
            }
        }
        if !figures.isEmpty {
            lines += ["", "## The seed's exam session", "", "| figure | value |", "|---|---|"]
            for (name, value) in figures {
                lines.append("| \(name) | \(value) |")
            }
        }
        if !history.isEmpty {
            lines += ["", "## A store after \(historyCheckpoints.formatted()) checkpoints", "",
                      "1,000 documents; each checkpoint saves an exam in progress and marks a book's sections. "
                      + "git makes the same commits with `git add && git commit`; `git repack -adf` then repacks both.", "",
                      "| figure | Cairn | git |", "|---|---:|---:|"]
            for row in history {
                lines.append("| \(row.figure) | \(row.cairn) | \(row.git) |")
            }
        }
        if !notes.isEmpty {
            lines += ["", "## How each workload is measured", ""]
            lines += notes.map { "- " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
