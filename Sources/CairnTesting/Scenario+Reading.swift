import CairnCore
import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Scenario {
    /// The actions of a step, by their key.
    static let actions = ["put", "patch", "rm", "checkpoint", "sync", "offline", "online", "clock"]
    /// The expectations, by their name.
    static let expectations = ["equals", "contains", "absent", "sameTree", "conflicts", "refused", "verified"]
    /// The codes of store errors a refusal may name.
    static let codes: [String: CairnError.Code] = [
        "invalidInput": .invalidInput, "notFound": .notFound, "alreadyExists": .alreadyExists, "busy": .busy,
        "corrupt": .corrupt, "io": .io, "network": .network, "authentication": .authentication, "refused": .refused,
    ]

    /// The scenarios of the file at `path` (one object, or an array of them), each read
    /// strictly or as the failure that says where it breaks the format: a file that cannot
    /// be read or is not JSON gives one failure, named after the file.
    public static func read(file path: String) -> [(name: String, scenario: Result<Scenario, StoryFailure>)] {
        let stem = Self.stem(of: path)
        let json: JSONValue
        do {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw StoryFailure("cannot read the file")
            }
            do {
                json = try JSONParser().parse([UInt8](bytes))
            } catch {
                throw StoryFailure("not valid JSON: \(error.description)")
            }
        } catch {
            var failure = error as? StoryFailure ?? StoryFailure("\(error)")
            failure.file = path
            return [(stem, .failure(failure))]
        }
        let entries: [(String, JSONValue, String)]
        if case .array(let elements) = json {
            entries = elements.enumerated().map { ("\(stem)[\($0.offset)]", $0.element, "/\($0.offset)") }
            if entries.isEmpty {
                return [
                    (
                        stem,
                        .failure(
                            StoryFailure("an empty array: the file holds a scenario, or an array of scenarios", file: path, pointer: ""))
                    )
                ]
            }
        } else {
            entries = [(stem, json, "")]
        }
        return entries.map { fallback, value, pointer in
            do {
                let scenario = try parse(value, at: pointer, file: path, fallbackName: fallback)
                return (scenario.name, .success(scenario))
            } catch let error as StoryFailure {
                var failure = error
                failure.file = path
                let name = value.field("name").flatMap { if case .string(let text) = $0 { text } else { nil } } ?? fallback
                return (name, .failure(failure))
            } catch {
                return (fallback, .failure(StoryFailure("\(error)", file: path)))
            }
        }
    }

    /// The file's name without its folder and `.json`.
    static func stem(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }

    static func parse(_ value: JSONValue, at pointer: String, file: String, fallbackName: String) throws(StoryFailure) -> Scenario {
        let object = try ScenarioObject(value, at: pointer, what: "a scenario")
        try object.allow(["name", "description", "schema", "user", "devices", "steps"], in: "a scenario")
        let name = try object.optionalString("name") ?? fallbackName
        _ = try object.optionalString("description")
        let schema = try object.string("schema")
        let user = try object.optionalString("user") ?? "u1"
        do {
            try Home.validate(uid: user)
        } catch {
            throw StoryFailure(error.description, pointer: object.at("user"))
        }
        let devices = try object.strings("devices")
        guard !devices.isEmpty else { throw StoryFailure("name at least one device", pointer: object.at("devices")) }
        for (index, device) in devices.enumerated() {
            if !Story.isDeviceName(device) {
                throw StoryFailure(
                    "invalid device name \"\(device)\": \(Story.deviceNameRule)", pointer: object.at("devices") + "/\(index)")
            }
            if devices[..<index].contains(device) {
                throw StoryFailure("the device \"\(device)\" is named twice", pointer: object.at("devices") + "/\(index)")
            }
        }
        var steps: [ScenarioStep] = []
        for (index, step) in try object.array("steps").enumerated() {
            steps.append(try parseEntry(step, at: object.at("steps") + "/\(index)", devices: devices))
        }
        return Scenario(name: name, file: file, schema: schema, user: user, devices: devices, steps: steps, pointer: pointer)
    }

    static func parseEntry(_ value: JSONValue, at pointer: String, devices: [String]) throws(StoryFailure) -> ScenarioStep {
        let object = try ScenarioObject(value, at: pointer, what: "a step")
        if object.fields["expect"] != nil {
            return .expect(try parseExpectation(object, devices: devices))
        }
        return .step(try parseStep(object, devices: devices))
    }

    static func device(_ object: ScenarioObject, _ key: String = "device", devices: [String]) throws(StoryFailure) -> String {
        let device = try object.string(key)
        guard devices.contains(device) else {
            throw StoryFailure("unknown device \"\(device)\"; the devices are \(devices.joined(separator: ", "))", pointer: object.at(key))
        }
        return device
    }

    static func path(_ object: ScenarioObject, _ key: String) throws(StoryFailure) -> String {
        let text = try object.string(key)
        do {
            _ = try DocumentPath(text)
        } catch {
            throw StoryFailure("invalid document path \"\(text)\": \(error.description)", pointer: object.at(key))
        }
        return text
    }

    static func parseStep(_ object: ScenarioObject, devices: [String]) throws(StoryFailure) -> Step {
        let named = actions.filter { object.fields[$0] != nil }
        guard named.count == 1, let action = named.first else {
            let unknown = object.fields.keys.sorted().filter { $0 != "device" && !actions.contains($0) }
            let hint = unknown.first.map { "unknown step \"\($0)\"; " } ?? (named.count > 1 ? "one action per step; " : "")
            throw StoryFailure(
                "\(hint)a step has \"device\" and one of \(actions.joined(separator: ", ")), or is an \"expect\"",
                pointer: unknown.first.map(object.at) ?? object.pointer)
        }
        let device = try device(object, devices: devices)
        switch action {
        case "put", "patch":
            try object.allow(["device", action, "value"], in: "a \(action) step")
            let path = try path(object, action)
            let value = try object.object("value")
            return action == "put" ? .put(device: device, path: path, value: value) : .patch(device: device, path: path, patch: value)
        case "rm":
            try object.allow(["device", "rm", "recursive"], in: "an rm step")
            return .remove(device: device, path: try path(object, "rm"), recursive: try object.bool("recursive", default: false))
        case "clock":
            try object.allow(["device", "clock"], in: "a clock step")
            let value = try object.value("clock")
            if value == .null { return .clock(device: device, milliseconds: nil) }
            guard let time = MergeClock.milliseconds(of: value), value.typeName != "number" else {
                throw StoryFailure(
                    "the clock is an integer (milliseconds since 1970, or seconds below 10^11), ISO 8601 text or null",
                    pointer: object.at("clock"))
            }
            return .clock(device: device, milliseconds: time)
        default:
            try object.allow(["device", action], in: "a \(action) step")
            try object.flag(action)
            switch action {
            case "checkpoint": return .checkpoint(device: device)
            case "sync": return .sync(device: device)
            case "offline": return .offline(device: device)
            default: return .online(device: device)
            }
        }
    }

    static func parseExpectation(_ object: ScenarioObject, devices: [String]) throws(StoryFailure) -> Expectation {
        let kind = try object.string("expect")
        switch kind {
        case "equals", "contains":
            try object.allow(["expect", "device", "path", "value"], in: "an \(kind) expectation")
            let (device, path, value) = (try device(object, devices: devices), try path(object, "path"), try object.object("value"))
            return kind == "equals"
                ? .equals(device: device, path: path, value: value) : .contains(device: device, path: path, value: value)
        case "absent":
            try object.allow(["expect", "device", "path"], in: "an absent expectation")
            return .absent(device: try device(object, devices: devices), path: try path(object, "path"))
        case "sameTree":
            try object.allow(["expect", "devices", "remote"], in: "a sameTree expectation")
            var named: [String] = []
            if object.fields["devices"] != nil {
                named = try object.strings("devices")
                for (index, device) in named.enumerated() where !devices.contains(device) {
                    throw StoryFailure(
                        "unknown device \"\(device)\"; the devices are \(devices.joined(separator: ", "))",
                        pointer: object.at("devices") + "/\(index)")
                }
            }
            return .sameTree(devices: named, remote: try object.bool("remote", default: true))
        case "conflicts":
            try object.allow(["expect", "device", "records"], in: "a conflicts expectation")
            let device = try device(object, devices: devices)
            let records = try object.array("records")
            for (index, record) in records.enumerated() {
                let entry = try ScenarioObject(record, at: object.at("records") + "/\(index)", what: "a conflict record")
                try entry.allow(["document", "pointer", "policy", "kept", "replaced", "note"], in: "a conflict record")
                guard ConflictRecord(json: record) != nil else {
                    throw StoryFailure(
                        "a conflict record has \"document\" (a document path), \"pointer\" and \"policy\" (strings), and \"kept\", \"replaced\" and \"note\" when they are present",
                        pointer: entry.pointer)
                }
            }
            return .conflicts(device: device, records: records)
        case "refused":
            try object.allow(["expect", "step", "code", "message"], in: "a refused expectation")
            let inner = try ScenarioObject(try object.object("step"), at: object.at("step"), what: "a step")
            if inner.fields["expect"] != nil {
                throw StoryFailure("the step of a refusal is a device's step, not an expectation", pointer: inner.pointer)
            }
            let step = try parseStep(inner, devices: devices)
            var code: CairnError.Code?
            if let name = try object.optionalString("code") {
                guard let known = codes[name] else {
                    throw StoryFailure(
                        "unknown code \"\(name)\"; use \(codes.keys.sorted().joined(separator: ", "))", pointer: object.at("code"))
                }
                code = known
            }
            let message = try object.optionalString("message")
            if message == "" {
                throw StoryFailure(
                    "\"message\" is a part of the refusal's message to look for; an empty one would match any, so leave it out",
                    pointer: object.at("message"))
            }
            return .refused(step, code: code, message: message)
        case "verified":
            try object.allow(["expect"], in: "a verified expectation")
            return .verified
        default:
            throw StoryFailure("unknown expectation \"\(kind)\"; use \(expectations.joined(separator: ", "))", pointer: object.at("expect"))
        }
    }
}
