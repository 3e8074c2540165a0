import ArgumentParser

/// The port `cairn web` (and `cairn-web`, which it runs) listens on, on 127.0.0.1.
package struct PortOption: ParsableArguments {
    @Option(help: ArgumentHelp("The port on 127.0.0.1 to listen on; 0 for any free one.", valueName: "port"))
    package var port: Int = 7007

    package init() {}

    package func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be a port number from 0 to 65535 (0 for any free one), not \(port)")
        }
    }
}
