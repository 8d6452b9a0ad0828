// The record of wrong tries per exercise: a small JSON object {exercise ID: count} the student
// owns, shared by the command line and Python (so both count the same way). IMPULSE_TRIES_FILE
// names it (default $HOME/.impulse/tries.json); IMPULSE_TRIES_FILE=off keeps no record.
//
// Concurrent checkers lose no update: each read-modify-write holds an exclusive flock on a lock
// file beside the record (PATH.lock), and the new record is written to a temporary file and renamed
// over the old one, so a reader never sees half a file. A record that is not such an object is
// refused (std::invalid_argument, one line) and left as it is.
#pragma once

#include <string>

namespace impulse::course {

/// The record's path, or "off".
std::string tries_path();

/// The wrong tries recorded for exercise id (0 when none, or when path is "off").
int recorded_tries(const std::string& path, const std::string& id);

/// Adds one wrong try of exercise id and returns the new count. A record that cannot be written
/// (a read-only home) still grades: the count returned is then the old one plus one, not kept.
int record_wrong_try(const std::string& path, const std::string& id);

}  // namespace impulse::course
