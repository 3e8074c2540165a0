import Foundation

/// The benchmark's results as Markdown: printed, and written to BENCHMARKS.md.
struct Report {
    var machine: Machine
    var command: String
    var rounds: Int
    var comparisons: [Comparison] = []
    /// Rows measured for their peak memory only, where their timing is not run.
    var memoryOnly: [Comparison] = []
    var growths: [Growth] = []
    var figures: [(String, String)] = []
    /// The serving workload's rows: figure, `cairn server run`, lighttpd.
    var serving: [(String, String, String)] = []
    /// The cluster workload's rows: backups (figure, `cairn server backup`, rclone) and the
    /// load run through HAProxy (figure, one shard, three shards).
    var backups: [(String, String, String)] = []
    var shards: [(String, String, String)] = []
    /// The history workload's rows (figure, Cairn, git), and how many checkpoints it made.
    var history: [HistoryFigures.Row] = []
    var historyCheckpoints = 0
    var notes: [String] = []
    /// The push-cost workload's rows: figure, CPU.
    var pushCosts: [(String, String)] = []
    /// The link workload's traffic, per operation.
    var links: [LinkBenchmark.Figures] = []

    /// Cairn's peak memory may be at most this many times its peer's.
    static let memoryLimit = 2.0
    /// The runs a side in which peak memory is measured.
    static let memoryRounds = 3

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
            lines.append(
                "| \(row.workload) | \(row.documents.formatted()) | \(row.cairnSide) | \(row.peerSide) | "
                    + "\(row.cairn.summary) \(row.unit) | \(row.peer.summary) \(row.unit) | "
                    + "\(Samples.format(row.speedup))× | \(row.target.text) | \(row.verdict) |")
        }
        let servers = comparisons.filter { !$0.cairnServer.values.isEmpty }
        if !servers.isEmpty {
            lines += [
                "", "## The server's CPU time", "",
                "The CPU time the server (lighttpd and every process it ran: `git http-backend`, "
                    + "`git upload-pack`, `git receive-pack` and their children) spent on each side's syncs, "
                    + "read from `/proc` before and after each side's turn (in steps of 10 ms), divided by "
                    + "the three syncs of a round.", "",
                "| workload | documents | Cairn side | peer side | server CPU per sync, Cairn | server CPU per sync, peer |",
                "|---|---:|---|---|---:|---:|",
            ]
            for row in servers {
                lines.append(
                    "| \(row.workload) | \(row.documents.formatted()) | \(row.cairnSide) | \(row.peerSide) | "
                        + "\(row.cairnServer.summary) ms | \(row.peerServer.summary) ms |")
            }
        }
        let peaks = (comparisons + memoryOnly).filter { !$0.cairnPeak.values.isEmpty && !$0.peerPeak.values.isEmpty }
        if !peaks.isEmpty {
            lines += [
                "", "## Peak memory", "",
                "The largest resident set of each side's process, or of any process it waited for "
                    + "(`git clone` runs `git index-pack`), as GNU time reports it, in \(Self.memoryRounds) runs "
                    + "a side apart from the timed rounds; restore over `file://`.", "",
                "| workload | documents | Cairn side | peer side | Cairn | peer | Cairn ÷ peer | target | verdict |",
                "|---|---:|---|---|---:|---:|---:|---|---|",
            ]
            for row in peaks {
                let met = row.memoryRatio <= Self.memoryLimit
                lines.append(
                    "| \(row.workload) | \(row.documents.formatted()) | \(row.cairnSide) | \(row.peerSide) | "
                        + "\(row.cairnPeak.summary) MiB | \(row.peerPeak.summary) MiB | \(Samples.format(row.memoryRatio))× | "
                        + "≤ \(Samples.format(Self.memoryLimit))× peer | \(met ? "met" : "**not met**: " + Explanations.memoryReason) |")
            }
        }
        if !growths.isEmpty {
            lines += [
                "", "## Growth with the store's size", "",
                "| workload | from | to | Cairn grew | peer grew | target | |",
                "|---|---:|---:|---:|---:|---|---|",
            ]
            for growth in growths {
                lines.append(
                    "| \(growth.workload) | \(growth.from.formatted()) | \(growth.to.formatted()) | "
                        + "\(Samples.format(growth.cairn))× | \(Samples.format(growth.peer))× | ≤ \(Samples.format(growth.limit))× | \(growth.verdict) |"
                )
            }
        }
        if !links.isEmpty {
            lines += [
                "", "## Over a phone's link", "",
                "What crossed the link for one operation of each side, averaged over the rounds: "
                    + "requests from lighttpd's access log (every answer, 401s included), connections and TLS "
                    + "handshakes counted by the link, bytes each way (TLS records included). The floor is the "
                    + "protocol's least round trips for the operation times the round trip, plus Cairn's larger "
                    + "direction over the bandwidth.", "",
                "| workload | documents | Cairn | git | round trips at least | floor |",
                "|---|---:|---|---|---:|---:|",
            ]
            for figure in links {
                lines.append(
                    "| \(figure.workload) | \(figure.documents.formatted()) | \(figure.cairn.text) | \(figure.peer.text) | "
                        + "\(figure.roundTrips) | \(Samples.format(figure.floor)) ms |")
            }
        }
        if !serving.isEmpty {
            lines += [
                "", "## Serving: `cairn server run` against lighttpd", "",
                "The same repositories (`cairn server init`, the life-in-uk set, Cairn's hooks) on each server, "
                    + "the same devices syncing with the tool: an ID token to `cairn server run`, a password to lighttpd "
                    + "running `git http-backend` as CGI. Rounds alternate between the two. Server CPU is the server's "
                    + "process and every process it ran (`git http-backend`, `git receive-pack`, the hooks), from `/proc`.", "",
                "| figure | cairn server run | lighttpd |", "|---|---:|---:|",
            ]
            for (name, front, lighttpd) in serving {
                lines.append("| \(name) | \(front) | \(lighttpd) |")
            }
        }
        if !pushCosts.isEmpty {
            lines += [
                "", "## The server's CPU for one push, part by part", "",
                "One push's request, as a device's git sent it, replayed into a repository of `cairn server init` "
                    + "through each layer a server runs, its branch set back before each replay. CPU of the process "
                    + "and of every process it waited for; a part is the difference between two layers in the same round.", "",
                "| figure | CPU |", "|---|---:|",
            ]
            for (name, value) in pushCosts { lines.append("| \(name) | \(value) |") }
        }
        if !backups.isEmpty {
            lines += [
                "", "## Backups: `cairn server backup` against rclone copying the folder", "",
                "A shard of many users' repositories (each with the same short history, as `cairn server init` makes them) "
                    + "backed up into a folder on the same disk: Cairn writes a git bundle for each user with something new "
                    + "and a manifest; rclone copies the repositories' files as they are, then compares every file with its copy. "
                    + "The restore makes every repository again with its hooks; rclone copies the files back.", "",
                "| figure | cairn server backup | rclone copy |", "|---|---:|---:|",
            ]
            for (name, cairn, rclone) in backups { lines.append("| \(name) | \(cairn) | \(rclone) |") }
        }
        if !shards.isEmpty {
            lines += [
                "", "## Shards behind HAProxy", "",
                "The load run through HAProxy, routed by bucket (the CRC-32 of the uid, modulo 1,024), to one "
                    + "`cairn server run` and then to three, all on this machine. Its cores are shared by every shard, "
                    + "HAProxy and the devices, so the total cannot grow here; the figure that carries to a machine "
                    + "each is the CPU per sync of each shard.", "",
                "| figure | 1 shard | 3 shards |", "|---|---:|---:|",
            ]
            for (name, one, three) in shards { lines.append("| \(name) | \(one) | \(three) |") }
        }
        if !figures.isEmpty {
            lines += ["", "## The seed's exam session", "", "| figure | value |", "|---|---|"]
            for (name, value) in figures {
                lines.append("| \(name) | \(value) |")
            }
        }
        if !history.isEmpty {
            lines += [
                "", "## A store after \(historyCheckpoints.formatted()) checkpoints", "",
                "1,000 documents; each checkpoint saves an exam in progress and marks a book's sections. "
                    + "git makes the same commits with `git add && git commit`; `git repack -adf` then repacks both.", "",
                "| figure | Cairn | git |", "|---|---:|---:|",
            ]
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
