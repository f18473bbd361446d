// scripting/resolver.h in process: what a log's header may name.
#include "scripting/resolver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/test_util.h"

namespace canasta {
namespace {

namespace fs = std::filesystem;

TEST(Resolver, AHeaderWithoutAFolderMayNameOnlyBuiltins) {
  RulesetChoice choice;
  std::string error;
  EXPECT_TRUE(ResolveRuleset("hutto", "", &choice, &error)) << error;
  EXPECT_EQ(choice.name, "hutto");
  EXPECT_TRUE(ResolveRuleset("", "", &choice, &error)) << error;
  EXPECT_EQ(choice.name, "classic");
  EXPECT_FALSE(ResolveRuleset("/etc/machine-id", "", &choice, &error));
  EXPECT_NE(error.find("must end in .lua"), std::string::npos) << error;
  EXPECT_FALSE(ResolveRuleset("house.lua", "", &choice, &error));
  EXPECT_NE(error.find("this log has no folder (standard input)"), std::string::npos) << error;
}

TEST(Resolver, AHeaderNamesFilesBelowItsLogsFolderOrAnAllowedOne) {
  const test::TempDir temp;
  const fs::path dir = temp.path();
  fs::create_directories(dir / "logs" / "r");
  fs::create_directories(dir / "shared");
  for (const fs::path& p : {dir / "logs" / "r" / "h.lua", dir / "shared" / "s.lua"})
    std::ofstream(p) << "return {name = \"h\", extends = \"hutto\"}\n";
  const std::string log = (dir / "logs" / "game.jsonl").string();
  RulesetChoice choice;
  std::string error;
  EXPECT_TRUE(ResolveLogRuleset("r/h.lua", log, {}, &choice, &error)) << error;
  EXPECT_EQ(choice.name, "h");
  EXPECT_EQ(choice.rules.num_players, 4);
  EXPECT_FALSE(ResolveLogRuleset("../shared/s.lua", log, {}, &choice, &error));
  const std::string shared = (dir / "shared" / "s.lua").string();
  EXPECT_FALSE(ResolveLogRuleset(shared, log, {}, &choice, &error));
  EXPECT_NE(error.find("is an absolute path"), std::string::npos) << error;
  RulesetPolicy allow;
  allow.allowed_dirs = {(dir / "shared").string()};
  EXPECT_TRUE(ResolveLogRuleset(shared, log, allow, &choice, &error)) << error;
  // The user may name any file.
  EXPECT_TRUE(ResolveUserRuleset(shared, &choice, &error)) << error;
}

}  // namespace
}  // namespace canasta
