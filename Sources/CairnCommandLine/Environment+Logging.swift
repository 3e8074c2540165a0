import Logging

extension Environment {
    /// Structured log lines on stderr at ``logLevel`` (`CAIRN_LOG`); none without it, so no
    /// library the tool links (the web server's among them) prints on its own.
    package func bootstrapLogging() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            guard let level else { return SwiftLogNoOpLogHandler() }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
