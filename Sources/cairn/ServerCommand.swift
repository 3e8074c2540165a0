import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge
import CairnServer
import CairnSystem

struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract:
            "Serve the users' repositories, or set them up for another server: bare repositories guarded by Cairn's hook, and shared content.",
        subcommands: [Run.self, Auth.self, Init.self, Content.self, Backup.self, Restore.self, Map.self, Rebalance.self])

    /// `cairn server run` and `cairn server auth`: their options checked here, then the tool
    /// becomes `cairn-server` (installed beside it), which serves.
    static func becomeServer(_ role: String, _ serve: ServeOptions) throws -> Never {
        try becomeServer(role, arguments: serve.arguments)
    }

    static func becomeServer(_ role: String, arguments: [String]) throws -> Never {
        guard let tool = Syscalls.executablePath() else {
            throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe), beside which cairn-server is")
        }
        let server = FileSystem.parent(of: tool) + "/cairn-server"
        let failure = Syscalls.execute(server, arguments: ["cairn-server", role] + arguments)
        throw CairnError(
            .notFound, "cannot run \(server): \(failure); install cairn-server beside cairn (swift build --product cairn-server builds it)")
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Serve a deployment: ID tokens checked, each user's repository made on their first sync, git's http-backend run.",
            discussion: """
                Devices sync with the ID token their app holds (Firebase Auth, any OIDC \
                provider): as the HTTP password with the user ID as the user name, or as \
                Authorization: Bearer. The token's uid claim must name the repository's user; \
                anonymous accounts fetch but do not push unless --allow-anonymous-writes. \
                A user's repository (DIR/<uid>.git, with Cairn's hooks) is made by their first \
                authenticated request. At most --max-backends git http-backend run at once; \
                later requests wait --queue-timeout, then get 503 with Retry-After. One log line \
                per request on stderr (CAIRN_LOG sets the level); /metrics and /healthz on \
                --metrics. Runs until SIGTERM or Ctrl-C. The server is the program \
                cairn-server, installed beside cairn.
                """)

        @OptionGroup var serve: ServeOptions

        func run() throws {
            try ServerCommand.becomeServer("run", serve)
        }
    }

    struct Auth: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "auth",
            abstract: "Answer nginx's auth_request with the same token check as run, for a deployment behind nginx.",
            discussion: """
                nginx asks it, for each request to /git/<uid>.git/…, with the original URI in \
                X-Original-URI and the Authorization header: 200 with X-Cairn-User (give it to \
                git http-backend as REMOTE_USER) once the user's repository exists, else 401 or \
                403. The article "The server" in CairnCore.docc shows nginx's configuration.
                """)

        @OptionGroup var serve: ServeOptions

        func run() throws {
            try ServerCommand.becomeServer("auth", serve)
        }
    }

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

        @Option(
            help: ArgumentHelp(
                "Check pushed documents against this schema set, by name or the path of its folder (default: the set each store carries).",
                valueName: "set"))
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
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract:
                "Back up a server's repositories into an object store: a git bundle for each user with something new, and a manifest.",
            discussion: """
                For each DIR/<uid>.git that changed since its last backup, a git bundle of what \
                changed (the first time, of everything) goes to TARGET/bundles/<uid>/, all in one \
                copy; then TARGET/manifest.json names every user's refs and bundles. A run with \
                nothing new writes nothing. TARGET is s3://BUCKET/PREFIX (credentials from \
                AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) or an absolute folder; rclone copies. \
                Run it from cron as often as the loss of recent pushes is bearable: the devices \
                push again what a restored server lacks.
                """)

        @OptionGroup var options: BackupOptions

        func run() throws {
            try ServerCommand.becomeServer("backup", arguments: options.arguments)
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Rebuild a server's repositories, with their hooks, from the backup in an object store.",
            discussion: """
                Each user of TARGET/manifest.json gets DIR/<uid>.git back, made as cairn server \
                init makes it, from their bundles; a bundle cut short or not the one the manifest \
                names, or refs that disagree with it, leave that user out, named, and the exit \
                status 1. DIR must hold no repository unless --force. Start the server again once \
                it is done: the devices push what the backup lacked.
                """)

        @OptionGroup var options: RestoreOptions

        func run() throws {
            try ServerCommand.becomeServer("restore", arguments: options.arguments)
        }
    }

    struct Map: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "map",
            abstract: "Print HAProxy's map of buckets for shards that start together: the 1,024 user buckets spread evenly.",
            discussion: """
                A user's bucket is the CRC-32 of their uid modulo 1,024 (HAProxy: \
                path,field(3,/),url_dec,regsub(\\.git$,),crc32,mod(1024)). Write the map where \
                HAProxy's configuration names it; cairn server rebalance changes it as shards join.
                """)

        @Argument(help: "The shards, as HAProxy's backends are named.")
        var shards: [String]

        func run() throws {
            try ServerCommand.becomeServer("map", arguments: shards)
        }
    }

    struct Rebalance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebalance",
            abstract: "Add a shard behind HAProxy: it takes its share of the buckets, and their users' repositories move to it.",
            discussion: """
                The old shards stop making repositories for the moving buckets' new users; the \
                users already there are pinned in HAProxy's map of users while the buckets \
                switch; then each moves: pushes held on the old shard (devices get 503 and \
                retry), the repository bundled, made and audited on the new one, unpinned, and \
                the old copy retired to DIR/.cairn-shard/retired/. Every shard must run with \
                --admin-secret-file; HAProxy's stats socket must be at level admin.
                """)

        @OptionGroup var options: RebalanceOptions

        func run() throws {
            try ServerCommand.becomeServer("rebalance", arguments: options.arguments)
        }
    }

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
                    (the article "Shared content" in CairnCore.docc shows the web server and gitolite rules). \
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

            @Option(
                help: ArgumentHelp(
                    "A user who may publish the collection's items (repeat for more); added to FOLDER/content/NAME/authors.",
                    valueName: "user"))
            var author: [String] = []

            func run() throws {
                guard let cairn = Syscalls.executablePath() else {
                    throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe) for the hook")
                }
                let set = try SchemaLocator.set(named: schema)
                let created = try Server.createContent(
                    in: folder, collection: name, items: items, cairn: cairn,
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
            try Hook.run(.postReceive)
        }
    }

    struct PreReceive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pre-receive",
            abstract: "Check a push (git gives `<old> <new> <ref>` lines on stdin); refuse it with reasons.")

        func run() throws {
            try Hook.run(.preReceive)
        }
    }

    /// Runs `hook` as `cairn-hook` runs it, for the repositories whose scripts name the tool.
    static func run(_ hook: ReceiveHook) throws {
        let outcome = hook.run(updateLines(), environment: Environment.current.variables, wording: { $0.commandLineMessage })
        for line in outcome.lines {
            Output.error("cairn: \(line)\n")
        }
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}
