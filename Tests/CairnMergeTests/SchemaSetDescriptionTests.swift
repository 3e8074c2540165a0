import CairnMerge
import CairnTestSupport
import Testing

/// What `cairn schema show` prints comes from the library, so an app can print it too: per
/// kind its path, checkpoint, retention, ID rules, policy tree and derived fields.
@Suite struct SchemaSetDescriptionTests {
    @Test func aMapOfEntriesShowsItsEntriesPolicyAndTheirOwnBelowIt() throws {
        let text = try SchemaSet(files: shippedSchemaSet("life-in-uk").files).description(named: "life-in-uk")
        #expect(text.hasPrefix("life-in-uk: 5 kinds of document, version 1\n\nusers/{uid}\n"))
        #expect(
            text.hasSuffix(
                """
                users/{uid}/progress/exam
                  file: progress-exam.schema.json
                  checkpoint: debounce 3 s
                  retention: keep all
                  ids: any valid ID
                  policy: fields
                    clientUpdatedAt: max
                    examSummaries: fields
                      *: lww(lastCompletedAt)
                        attemptCount: counter
                        bestScore: max
                    updatedAt: max

                """))
    }

    @Test func retentionIDRulesAndRatiosAreSpelledOut() throws {
        let schema = #"""
            {"x-cairn": {"path": "users/{uid}/runs/{runId}", "checkpoint": {"throttle": 1.5},
                         "retention": {"keep": 50, "by": "at"}, "ids": {"runId": {"pattern": "^r[0-9]+$"}}},
             "type": "object", "x-merge": {"lww": "at"},
             "properties": {"at": {"type": "integer"}, "km": {"type": "number"}, "minutes": {"type": "number"},
                            "pace": {"type": "number", "x-merge": {"derive": {"ratio": ["minutes", "km"]}}}}}
            """#
        let set = try SchemaSet(files: ["run.schema.json": Array(schema.utf8)])
        #expect(
            set.description(named: "runs") == """
                runs: 1 kind of document, version 1

                users/{uid}/runs/{runId}
                  file: run.schema.json
                  checkpoint: throttle 1.5 s
                  retention: keep the latest 50 by at
                  ids:
                    {runId}: { "pattern": "^r[0-9]+$" }
                  policy: lww(at)
                  derived:
                    pace: minutes / km (0 when km is 0)

                """)
        let kind = set.jsonDescription(named: "runs").field("kinds")
        #expect(
            kind
                == .array([
                    .object([
                        "path": .string("users/{uid}/runs/{runId}"), "file": .string("run.schema.json"),
                        "checkpoint": .object(["throttle": .double(1.5)]), "checkpointDeclared": .bool(true),
                        "retention": .object(["keep": .integer(50), "by": .string("at")]),
                        "ids": .object(["runId": .object(["pattern": .string("^r[0-9]+$")])]),
                        "pins": .null,
                        "assets": .object([:]),
                        "policy": .object(["policy": .string("lww(at)")]),
                        "derived": .object([
                            "pace": .object([
                                "derive": .object(["ratio": .array([.string("minutes"), .string("km")]), "scale": .integer(1)]),
                                "computes": .string("minutes / km (0 when km is 0)"),
                            ])
                        ]),
                    ])
                ]))
    }
}
