extension SchemaSetCheck {
    /// `did you mean "counter"?` for the known word nearest to `word` by edit distance, when
    /// one is near enough to be a slip; else `otherwise`.
    static func suggestion(for word: String, among known: [String], otherwise: String) -> String {
        let nearest = known.map { (word: $0, distance: editDistance(word, $0)) }
            .min { $0.distance != $1.distance ? $0.distance < $1.distance : $0.word < $1.word }
        // A slip: a few edits, more for longer words, and never the whole word.
        guard let nearest, nearest.distance <= Swift.max(2, Swift.max(word.count, nearest.word.count) / 3),
            nearest.distance < word.count
        else { return otherwise }
        return "did you mean \"\(nearest.word)\"?"
    }

    /// Levenshtein's distance: the fewest insertions, deletions and substitutions of characters
    /// that turn one word into the other.
    package static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
