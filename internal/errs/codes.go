package errs

// Error codes: the stable, machine-readable half of every *Error, defined
// once here and documented in docs/errors.md. Front ends compare codes
// through these constants, never through string literals.
const (
	// Input.
	CodeInvalidArgument  = "INVALID_ARGUMENT"
	CodeQueryEmpty       = "QUERY_EMPTY"
	CodeQueryTooLong     = "QUERY_TOO_LONG"
	CodeLimitInvalid     = "LIMIT_INVALID"
	CodeInvalidRange     = "INVALID_RANGE"
	CodeRepoInvalid      = "REPO_INVALID"
	CodeSpecIDRequired   = "SPEC_ID_REQUIRED"
	CodeRequirementReq   = "REQUIREMENT_REQUIRED"
	CodeEmbedderInvalid  = "EMBEDDER_INVALID"
	CodeEmbedderMismatch = "EMBEDDER_MISMATCH"

	// Paths and files.
	CodeOutsideRoot   = "PATH_OUTSIDE_ROOT"
	CodeNotFound      = "NOT_FOUND"
	CodeNotAFile      = "NOT_A_FILE"
	CodeNotADirectory = "NOT_A_DIRECTORY"
	CodeUnreadable    = "UNREADABLE"
	CodeBinaryFile    = "BINARY_FILE"
	CodeFileTooLarge  = "FILE_TOO_LARGE" // an image or audio file over what open_file sends

	// Things looked up by name.
	CodePackageNotFound     = "PACKAGE_NOT_FOUND"
	CodeSpecNotFound        = "SPEC_NOT_FOUND"
	CodeRequirementNotFound = "REQUIREMENT_NOT_FOUND"
	CodeScenarioNotFound    = "SCENARIO_NOT_FOUND"
	CodeNoScenarios         = "NO_SCENARIOS"
	CodeSpecsDirNotFound    = "SPECS_DIR_NOT_FOUND"
	CodeSpecsDirNotDir      = "SPECS_DIR_NOT_DIR"
	CodeCollectionNotFound  = "COLLECTION_NOT_FOUND"
	CodeJobNotFound         = "JOB_NOT_FOUND"
	CodeSymbolNotFound      = "SYMBOL_NOT_FOUND"

	// The index.
	CodeNoIndex          = "NO_INDEX"
	CodeIndexOutdated    = "INDEX_OUTDATED"
	CodeIndexBusy        = "INDEX_BUSY"
	CodeIndexNotWritable = "INDEX_NOT_WRITABLE"

	// Models and endpoints.
	CodeModelNotFound      = "MODEL_NOT_FOUND"
	CodeModelInvalid       = "MODEL_INVALID"
	CodeModelDownload      = "MODEL_DOWNLOAD"
	CodeEmbeddingEndpoint  = "EMBEDDING_ENDPOINT"
	CodeEmbeddingAuth      = "EMBEDDING_AUTH"
	CodeEmbeddingBadResult = "EMBEDDING_BAD_RESULT"

	// The rest.
	CodeShuttingDown = "SHUTTING_DOWN"
	CodeCancelled    = "CANCELLED"
	CodeInternal     = "INTERNAL"
)
