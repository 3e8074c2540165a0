import CoreMetrics
import Prometheus

/// What `cairn server run` counts and times, through swift-metrics into a Prometheus
/// registry that `/metrics` shows on the private address:
///
/// - `cairn_requests_total{route,status}`: every request answered;
/// - `cairn_token_refusals_total{reason}`: tokens refused, by reason (`expired`, `signature`, …);
/// - `cairn_pushes_total{result="accepted"}` and `{result="refused",rule}`: pushes the hook
///   took or refused, by the rule of each refusal;
/// - `cairn_backend_seconds` and `cairn_hook_seconds{hook}`: how long `git http-backend` and
///   each hook ran (histograms; the post-receive hook starts the tool, and reports, only in a
///   repository that stores assets);
/// - `cairn_repositories_provisioned_total`, and `cairn_backends_running`.
struct FrontMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // From 5 ms to a minute: a fetch of nothing to a restore of a large store.
        factory.defaultDurationHistogramBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60].map {
            .milliseconds(Int64($0 * 1000))
        }
        self.factory = factory
        backendsRunning = CoreMetrics.Gauge(label: "cairn_backends_running", dimensions: [], factory: factory)
    }

    let backendsRunning: CoreMetrics.Gauge

    func request(route: String, status: Int) {
        CoreMetrics.Counter(label: "cairn_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            .increment()
    }

    func tokenRefused(_ reason: String) {
        CoreMetrics.Counter(label: "cairn_token_refusals_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    func push(refusedRules: [String]) {
        if refusedRules.isEmpty {
            CoreMetrics.Counter(label: "cairn_pushes_total", dimensions: [("result", "accepted")], factory: factory).increment()
        }
        for rule in Set(refusedRules).sorted() {
            CoreMetrics.Counter(label: "cairn_pushes_total", dimensions: [("result", "refused"), ("rule", rule)], factory: factory)
                .increment()
        }
    }

    func backend(seconds: Double) {
        CoreMetrics.Timer(label: "cairn_backend_seconds", dimensions: [], factory: factory).recordNanoseconds(Int64(seconds * 1e9))
    }

    func hook(_ name: String, seconds: Double) {
        CoreMetrics.Timer(label: "cairn_hook_seconds", dimensions: [("hook", name)], factory: factory).recordNanoseconds(
            Int64(seconds * 1e9))
    }

    func provisioned() {
        CoreMetrics.Counter(label: "cairn_repositories_provisioned_total", dimensions: [], factory: factory).increment()
    }

    /// The registry in Prometheus's text format.
    func text() -> [UInt8] {
        registry.emitToBuffer()
    }
}
