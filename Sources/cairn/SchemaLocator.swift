#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CairnCore
import CairnMerge

#if canImport(Glibc)
import Glibc
#endif

/// Finds the schema sets shipped with Cairn: in the folders of `$CAIRN_SCHEMA_PATH`
/// (colon-separated), then `share/cairn/schema` beside the installed tool (`bin/../share`),
/// then a `schema/` folder above the tool (a checkout, where the build lives in `.build/`).
enum SchemaLocator {
    /// The running tool's own path (`/proc/self/exe`).
    static func executable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func folders() -> [String] {
        var folders = Environment.current.schemaPath
        if let executable = executable() {
            var folder = parent(executable)
            folders.append(parent(folder) + "/share/cairn/schema")
            while folder != "/" && !folder.isEmpty {
                folders.append(folder + "/schema")
                folder = parent(folder)
            }
        }
        return folders
    }

    /// The set `name`, or an error that lists the sets there are.
    static func set(named name: String) throws -> SchemaSetFiles {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw CairnError(.invalidInput, "invalid schema set name \"\(name)\"")
        }
        for folder in folders() {
            if let set = try SchemaSetFolder.read(folder + "/" + name) { return set }
        }
        let known = Set(folders().flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { set in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + set)) ?? []).contains { $0.hasSuffix(".schema.json") }
            }
        }).sorted()
        let list = known.isEmpty ? "none found; set CAIRN_SCHEMA_PATH to the folder that holds the sets" : "known: " + known.joined(separator: ", ")
        throw CairnError(.notFound, "there is no schema set \"\(name)\" (\(list))")
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
