package storage

// SQLSTATEs storage raises that package pgerr has no name for.
const (
	codeDataCorrupted    = "XX001" // data_corrupted
	codeIOError          = "58030" // io_error
	codeSerialization    = "40001" // serialization_failure
	codeInvalidSavepoint = "3B001" // invalid_savepoint_specification
	codeDeadlock         = "40P01" // deadlock_detected
)
