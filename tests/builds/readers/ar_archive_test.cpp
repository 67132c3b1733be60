// Static libraries: members by GNU and BSD long names, symbol tables
// skipped, thin archives and corrupt headers refused; a real archive made by
// binutils' ar (tests/fixtures/inspect/libkernels.a) read member by member.
#include "catch.hpp"

#include <string>
#include <vector>

#include "builds/readers/ar_archive.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "builds/readers/mapped_file.hpp"

using occcalc::inspect::ar_members;
using occcalc::inspect::byte_view;
using occcalc::test::matchers::Contains;

namespace {

/// One ar member header (60 bytes) and its data, padded to an even size.
std::string member(const std::string& name, const std::string& data) {
  std::string header = name;
  header.resize(16, ' ');
  header += "0           0     0     100644  ";
  std::string size = std::to_string(data.size());
  size.resize(10, ' ');
  header += size + "`\n";
  REQUIRE(header.size() == 60);
  return header + data + (data.size() % 2 ? "\n" : "");
}

std::vector<occcalc::inspect::ar_member> members_of(const std::string& archive) {
  return ar_members(byte_view(reinterpret_cast<const unsigned char*>(archive.data()), archive.size()));
}

}  // namespace

TEST_CASE("ar: GNU archives: short names end in '/', long ones come from the // table", "[inspect][ar]") {
  const std::string names = "a_very_long_object_file_name.o/\nanother_long_member_name.o/\n";
  const std::string archive = "!<arch>\n" + member("/", "symbol table") + member("//", names) +
                              member("short.o/", "first") + member("/0", "second") + member("/32", "third!");
  const auto members = members_of(archive);
  REQUIRE(members.size() == 3);
  CHECK(members[0].name == "short.o");
  CHECK(members[0].contents.as_text() == "first");
  CHECK(members[1].name == "a_very_long_object_file_name.o");
  CHECK(members[1].contents.as_text() == "second");
  CHECK(members[2].name == "another_long_member_name.o");
  CHECK(members[2].contents.as_text() == "third!");
}

TEST_CASE("ar: BSD archives put long names before the data (#1/N)", "[inspect][ar]") {
  const std::string archive = "!<arch>\n" + member("__.SYMDEF SORTED", "symbols") +
                              member("#1/24", std::string("a_long_bsd_name.o\0\0\0\0\0\0\0", 24) + "data");
  const auto members = members_of(archive);
  REQUIRE(members.size() == 1);
  CHECK(members[0].name == "a_long_bsd_name.o");
  CHECK(members[0].contents.as_text() == "data");
}

TEST_CASE("ar: thin archives and corrupt headers are refused with a reason", "[inspect][ar]") {
  CHECK_THROWS_WITH(members_of("!<thin>\n" + member("a.o/", "x")), Contains("a thin archive"));
  // A size past the end of the file.
  std::string truncated = "!<arch>\n" + member("a.o/", "0123456789");
  truncated.resize(truncated.size() - 4);
  CHECK_THROWS_WITH(members_of(truncated), Contains("archive member"));
  // A header without its end marker, and a size that is not a number.
  std::string no_marker = "!<arch>\n" + member("a.o/", "ab");
  no_marker[8 + 58] = 'x';
  CHECK_THROWS_WITH(members_of(no_marker), Contains("no end marker"));
  std::string bad_size = "!<arch>\n" + member("a.o/", "ab");
  bad_size[8 + 48] = 'z';
  CHECK_THROWS_WITH(members_of(bad_size), Contains("corrupt size"));
  // A long name outside the name table.
  CHECK_THROWS_WITH(members_of("!<arch>\n" + member("//", "x.o/\n") + member("/99", "d")),
                    Contains("offset 99 of a 5-byte name table"));
}

TEST_CASE("ar: a library made by ar is read member by member", "[inspect][ar]") {
  // make-fixtures.sh: ar rc libkernels.a short.o kernels.rdc.o
  // a_very_long_object_file_name_beyond_sixteen.o embedded.o
  const occcalc::inspect::mapped_file file(std::string(OCCCALC_FIXTURE_DIR) + "/libkernels.a");
  occcalc::inspect::inspect_options options;
  const auto in = occcalc::inspect::inspect_bytes(file.bytes(), options);
  CHECK(in.kind == "static library");
  CHECK(in.skipped_members == 2);  // the two host-only objects
  // kernels.rdc.o's 30 kernels and embedded.o's fat binary's 10.
  CHECK(in.kernels.size() == 40);
  CHECK_THAT(in.kernels.front().resources.origin, Contains("kernels.rdc.o, __nv_relfatbin entry 1"));
  CHECK_THAT(in.kernels.back().resources.origin, Contains("embedded.o, .rodata+0xc"));
}
