import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge
import CairnServer

struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Set up the server side: per-user bare repositories guarded by Cairn's hook, and shared content.",
        subcommands: [Init.self, Content.self])

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create FOLDER/<uid>.git for each user, with Cairn's pre-receive hook.",
            discussion: """
                Serve FOLDER with any smart-HTTP git server (git http-backend behind a web \
                server) that lets user <uid> fetch and push <uid>.git only. The hook runs this \
                cairn binary: keep it where it is, or run server init again elsewhere.
                """)

        @Argument(help: "The folder of the repositories (created if needed).")
        var folder: String

        @Argument(help: "The users to create repositories for.")
        var uids: [String]

        @Option(help: ArgumentHelp("Check pushed documents against this schema set, by name or the path of its folder (default: the set each store carries).", valueName: "set"))
        var schema: String?

        func run() throws {
            guard let cairn = Syscalls.executablePath() else {
                throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe) for the hook")
            }
            let set = try schema.map { try SchemaLocator.set(named: $0) }
            for path in try Server.createRepositories(in: folder, uids: uids, cairn: cairn, schemaSet: set) {
                print("Created \(path)")
            }
        }
    }
}

extension ServerCommand {
    struct Content: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "content",
            abstract: "Set up shared content: a collection of items, one bare repository each, that authors publish to.",
            subcommands: [Init.self, Remove.self])

        struct Init: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "init",
                abstract: "Create FOLDER/content/NAME/ with its schema set and FOLDER/content/NAME/<item>.git per ITEM.",
                discussion: """
                    Serve FOLDER/content/ so that every signed-in user may fetch and only the \
                    collection's authors (FOLDER/content/NAME/authors, one user a line) may push \
                    (the README's "Shared content" shows the web server and gitolite rules). \
                    Running it again adds the ITEMs that are not there yet and leaves the others \
                    alone; the set must be the one the collection was made with.
                    """)

            @Argument(help: "The server's folder (content goes in FOLDER/content/).")
            var folder: String

            @Argument(help: "The collection: the literal first segment of the set's paths (assessments, books).")
            var name: String

            @Argument(help: "The items to create repositories for.")
            var items: [String] = []

            @Option(help: ArgumentHelp("The collection's content set, by name or the path of its folder.", valueName: "set"))
            var schema: String

            @Option(help: ArgumentHelp("A user who may publish the collection's items (repeat for more); added to FOLDER/content/NAME/authors.", valueName: "user"))
            var author: [String] = []

            func run() throws {
                guard let cairn = Syscalls.executablePath() else {
                    throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe) for the hook")
                }
                let set = try SchemaLocator.set(named: schema)
                let created = try Server.createContent(in: folder, collection: name, items: items, cairn: cairn,
                                                       schemaSet: set, authors: author)
                if created.createdCollection {
                    print("Created \(created.collectionFolder) (schema set \(set.name))")
                }
                for path in created.repositories {
                    print("Created \(path)")
                }
                if !created.createdCollection && created.repositories.isEmpty {
                    print("\(created.collectionFolder) holds every item named already; nothing was created")
                }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rm",
                abstract: "Delete an item: its repository goes, and devices see it as deleted.")

            @Argument(help: "The server's folder.")
            var folder: String

            @Argument(help: "The collection.")
            var name: String

            @Argument(help: "The item to delete.")
            var item: String

            func run() throws {
                print("Removed \(try Server.removeContent(in: folder, collection: name, item: item))")
            }
        }
    }
}

struct Hook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hook",
        abstract: "Server-side checks, run by git inside a repository of cairn server init.",
        subcommands: [PreReceive.self, PostReceive.self])

    /// What git gives a receive hook on stdin: a line `<old> <new> <ref>` per updated reference.
    static func updateLines() -> String {
        var input = ""
        while let line = readLine(strippingNewline: false) { input += line }
        return input
    }

    struct PostReceive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "post-receive",
            abstract: "After a push: remove from the server the assets no document points to any more.")

        func run() throws {
            let input = Hook.updateLines()
            do {
                let removed = try PostReceiveHook().run(input)
                if !removed.isEmpty {
                    Output.error("cairn: removed \(removed.count) asset(s) no document points to any more\n")
                }
            } catch {
                // The push is in whatever happens here: say what was not removed.
                Output.error("cairn: \(error.commandLineMessage)\n")
                throw ExitCode(1)
            }
        }
    }

    struct PreReceive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pre-receive",
            abstract: "Check a push (git gives `<old> <new> <ref>` lines on stdin); refuse it with reasons.")

        func run() throws {
            let input = Hook.updateLines()
            let refusal = Self.refusal(try PreReceiveHook(environment: Environment.current.variables), input)
            guard let refusal else { return }
            for line in refusal.split(separator: "\n") {
                Output.error("cairn: \(line)\n")
            }
            throw ExitCode(1)
        }

        /// The hook's refusal of the push, one reason per line; nil when it is accepted.
        static func refusal(_ hook: PreReceiveHook, _ input: String) -> String? {
            do {
                try hook.check(input)
                return nil
            } catch {
                return error.commandLineMessage
            }
        }
    }
}
