import Foundation

/// Shared content on a device: `cairn content download` of one item (an assessment of
/// `questions` questions) against `git clone --bare` of the same repository, and the update
/// to a version that changed one question against `git fetch`, both over `file://` (so both
/// transfer packs, as over a network). Cairn's side also checks every document of every
/// version it receives against the collection's set, and records the item in its cache.
struct ContentBenchmark {
    let bench: Workbench

    func run(questions: Int) throws -> [Comparison] {
        let work = try bench.scratch("content-\(questions)")
        defer { if !bench.keep { bench.remove(work) } }
        let server = work + "/server"
        try bench.run(bench.cairn, ["server", "init", server, "u1"])
        try bench.run(bench.cairn, ["server", "content", "init", server, "assessments", "a1", "--schema", "edumind-content"])
        let item = server + "/content/assessments/a1.git"
        let author = work + "/author"
        try bench.run(bench.git, ["clone", "-q", item, author])
        try publish(in: author, questions: questions, changing: nil)
        let home = work + "/home"
        try bench.cairnCommand(home: home, ["init", "u1", "--remote", "file://" + server + "/u1.git"]).run()
        try bench.cairnCommand(home: home, ["content", "remote", "file://" + server + "/content/{collection}/{item}.git"]).run()
        let plain = work + "/plain.git"
        let url = "file://" + item

        var first = Comparison(
            workload: "download an assessment for offline use (\(questions) questions)", documents: questions + 1,
            cairnSide: "cairn content download", peerSide: "git clone --bare", unit: "ms", target: .atMost(2))
        for round in 0..<bench.rounds {
            try first.measure(
                round: round,
                cairn: {
                    bench.remove(home + "/.content")
                    return try bench.cairnCommand(home: home, ["content", "download", "-q", "assessments", "a1"]).timed()
                },
                peer: {
                    bench.remove(plain)
                    return try Command(bench.git, ["clone", "-q", "--bare", url, plain], environment: bench.environment).timed()
                })
        }
        // Both hold version 1 now; keep those copies and time the move to version 2.
        let heldCache = work + "/held-content"
        let heldPlain = work + "/held-plain.git"
        try bench.copy(home + "/.content", to: heldCache)
        try bench.copy(plain, to: heldPlain)
        try publish(in: author, questions: questions, changing: questions / 2)
        var update = Comparison(
            workload: "update it to a version with one question changed", documents: questions + 1,
            cairnSide: "cairn content download", peerSide: "git fetch", unit: "ms", target: .atMost(2))
        for round in 0..<bench.rounds {
            try update.measure(
                round: round,
                cairn: {
                    bench.remove(home + "/.content")
                    try bench.copy(heldCache, to: home + "/.content")
                    return try bench.cairnCommand(home: home, ["content", "download", "-q", "assessments", "a1"]).timed()
                },
                peer: {
                    bench.remove(plain)
                    try bench.copy(heldPlain, to: plain)
                    return try Command(
                        bench.git, ["--git-dir", plain, "fetch", "-q", url, "+refs/heads/main:refs/heads/main"],
                        environment: bench.environment
                    ).timed()
                })
        }
        let ours = try bench.output(bench.git, ["--git-dir", home + "/.content/assessments/a1.git", "rev-parse", "main"])
        let theirs = try bench.output(bench.git, ["--git-dir", plain, "rev-parse", "main"])
        guard ours == theirs else {
            throw Command.Failure(description: "content: the cache holds \(ours), git's copy \(theirs)")
        }
        return [first, update]
    }

    /// Commits the assessment and its questions (question `changing` reworded) and pushes.
    private func publish(in clone: String, questions: Int, changing: Int?) throws {
        try FileManager.default.createDirectory(atPath: clone + "/assessments/a1/questions", withIntermediateDirectories: true)
        try Workbench.write(
            Array(
                #"{"title": "Algebra", "timeLimitSeconds": 600, "publishedAt": "2026-11-23T10:00:00Z", "questionCount": \#(questions)}"#
                    .utf8),
            to: clone + "/assessments/a1.json")
        for number in 1...questions {
            let prompt =
                number == changing ? "Solve again for x: \(number) + x = \(number * 2)" : "Solve for x: \(number) + x = \(number * 2)"
            let text = #"{"type": "numeric", "order": \#(number), "prompt": "\#(prompt)", "correctAnswers": ["\#(number)"], "points": 1}"#
            try Workbench.write(Array(text.utf8), to: clone + "/assessments/a1/questions/q-\(String(format: "%03d", number)).json")
        }
        try bench.run(bench.git, ["-C", clone, "add", "-A"])
        try bench.run(bench.git, ["-C", clone, "commit", "-q", "-m", changing == nil ? "version 1" : "one question reworded"])
        try bench.run(bench.git, ["-C", clone, "push", "-q", "origin", "HEAD:main"])
    }
}
