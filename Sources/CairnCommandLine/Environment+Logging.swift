import Logging

extension Environment {
    /// Structured log lines on stderr at ``logLevel`` (`CAIRN_LOG`), else at `defaultLevel`;
    /// none without either, so no library the tool links (the web server's among them)
    /// prints on its own.
    package func bootstrapLogging(defaultLevel: Logger.Level? = nil) {
        let level = logLevel ?? defaultLevel
        LoggingSystem.bootstrap { label in
            guard let level else { return SwiftLogNoOpLogHandler() }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
