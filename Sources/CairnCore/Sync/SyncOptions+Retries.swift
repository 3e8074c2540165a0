import Logging

extension SyncOptions {
    /// Runs `body`, trying again on ``retry`` while it fails for a network reason (a
    /// ``CairnError`` with code ``CairnError/Code/network``): before each pause, the failure
    /// is logged as a warning (`network failure`, with the reason, the retry and the pause)
    /// and told to ``willRetry``. What a sync fetches and pushes, and what a clone fetches,
    /// goes through here.
    func retryingNetworkFailures<T>(logger: Logger, _ body: () throws -> T) throws -> T {
        var retries = 0
        while true {
            do {
                return try body()
            } catch let error as CairnError where error.code == .network && retries < retry.delays.count {
                let pause = retry.delays[retries]
                retries += 1
                logger.warning("network failure", metadata: ["reason": "\(error.message)", "retry": "\(retries)", "pause": "\(pause)"])
                willRetry?(error, pause, retries)
                sleep(pause)
            }
        }
    }
}
