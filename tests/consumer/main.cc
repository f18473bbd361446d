// Audits one log with the installed library and prints the number of
// findings and each finding as `canasta audit` does; exits as `canasta
// audit` would for the file. Built by .ci/package-test against the package.
#include <canasta/canasta.h>

#include <cstring>
#include <iostream>

#if CANASTA_VERSION_MAJOR == 0 && CANASTA_VERSION_MINOR < 1
#error "canasta 0.1 or later is needed"
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer LOG\n";
    return 2;
  }
  if (std::strcmp(canasta::api::Version(), CANASTA_VERSION_STRING) != 0) {
    std::cerr << "consumer: headers " << CANASTA_VERSION_STRING << ", library "
              << canasta::api::Version() << "\n";
    return 2;
  }
  const canasta::api::AuditResult result = canasta::api::AuditFile(argv[1]);
  const std::vector<canasta::api::Finding> findings = result.AllFindings();
  std::cout << "canasta " << canasta::api::Version() << ": " << findings.size() << " finding(s) in "
            << result.file << "\n";
  for (const canasta::api::Finding& f : findings) std::cout << canasta::api::ToText(f);
  return result.ExitCode();
}
