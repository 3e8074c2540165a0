/// The rule a refusal of the hook names, as a short label for counting pushes refused by rule
/// (the server's metrics): each refusal line of ``PreReceiveHook`` is one of these forms.
public enum PushRefusalRule {
    /// The labels, most telling first: the first whose words a refusal holds is its rule.
    static let rules: [(label: String, words: [String])] = [
        ("user", [" may not push to the progress of ", " is not an author of "]),
        ("history", ["not a fast-forward", "deleting main is refused", "holds progress;", "holds the versions of"]),
        ("merge", ["is not what the policies give", "parents: a merge of progress has two"]),
        ("append-only", [" is append-only ("]),
        ("schema", [" breaks its schema ", " is no kind of document of "]),
        ("size", ["; a document is at most "]),
        ("json", [" is not valid JSON", " holds a JSON "]),
        ("derived", [": derived field "]),
        (
            "assets",
            [
                " names an asset ", " is not the pointer of the asset ", " holds an asset whose pointer ", " points to the asset ",
                " says the asset ", " holds no assets ",
            ]
        ),
        (
            "encryption",
            [
                "is not encrypted, and the store is", "is not an encrypted document", "holds the encrypted document of",
                "a store is encrypted or plain from its creation",
            ]
        ),
        (
            "layout",
            [
                " belongs to another user than ", " is outside the store's folders ", " is not a document's file ",
                "; a store holds plain files only", " is outside the item's folders ",
            ]
        ),
    ]

    /// The label of a refusal line: `append-only`, `schema`, …, or `other`.
    public static func label(of refusal: String) -> String {
        rules.first { rule in rule.words.contains { refusal.contains($0) } }?.label ?? "other"
    }
}
