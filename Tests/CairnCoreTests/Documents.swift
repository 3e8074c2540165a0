import CairnMerge

/// A JSON value from text, for tests that write documents.
func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

/// A document path from text.
func path(_ text: String) throws -> DocumentPath { try DocumentPath(text) }
