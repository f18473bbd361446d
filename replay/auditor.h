// Replays canasta-log/1 files through the rules engine and reports every
// finding with its line. Never stops at the first problem: an illegal move
// that is physically possible is applied as recorded. The loop itself is the
// replay driver (replay/driver.h); the audit is the driver with no observer.
#ifndef CANASTA_REPLAY_AUDITOR_H_
#define CANASTA_REPLAY_AUDITOR_H_

#include <istream>
#include <string>

#include "replay/driver.h"
#include "replay/report.h"

namespace canasta {

FileReport AuditStream(std::istream& in, const std::string& file, const AuditOptions& options);
FileReport AuditFile(const std::string& path, const AuditOptions& options);

}  // namespace canasta

#endif  // CANASTA_REPLAY_AUDITOR_H_
