#include "replay/auditor.h"

#include <fstream>

namespace canasta {

FileReport AuditStream(std::istream& in, const std::string& file, const AuditOptions& options) {
  ReplayDriver driver(options);
  return driver.Run(in, file);
}

FileReport AuditFile(const std::string& path, const AuditOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    FileReport r;
    r.file = path;
    r.unreadable = true;
    return r;
  }
  return AuditStream(in, path, options);
}

}  // namespace canasta
