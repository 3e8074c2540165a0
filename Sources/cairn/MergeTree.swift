import ArgumentParser
import CairnCore
import CairnMerge

struct MergeTree: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-tree",
        abstract: "Merge two revisions under the policies without changing the store; print the tree.",
        discussion: """
            Prints the merged tree's id (the tree is written, so git ls-tree and git diff can \
            read it), then one line per conflict the policies decided. Nothing else changes: \
            not the branch, the working tree or the pending writes.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "One side of the merge (a commit id, a branch, HEAD~2, origin/main).")
    var ours: String

    @Argument(help: "The other side.")
    var theirs: String

    func run() throws {
        let store = try global.openStore()
        let (tree, conflicts) = try store.mergeTree(ours, theirs)
        print(tree)
        for record in conflicts {
            print(record.description)
        }
    }
}
