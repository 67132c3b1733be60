// Loads the installed tables and checks the Best Practices Guide example.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <occcalc/occcalc.hpp>

static std::string read(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

int main() {
  const std::string dir = OCCCALC_DATA_DIR;
  const std::string archs = read(dir + "/nvidia-architectures.json");
  const std::string gpus = read(dir + "/nvidia-gpus.json");
  const occcalc::table tables = occcalc::load_tables({{"archs", archs}, {"gpus", gpus}});
  occcalc::launch_config launch;
  launch.threads_per_block = 128;
  launch.registers_per_thread = 37;
  const auto result = occcalc::compute_occupancy(occcalc::require_arch(tables, "cc", "7.0"), launch);
  std::cout << "occcalc " << occcalc::version_string << ": " << result.blocks_per_sm << " blocks, "
            << result.occupancy() * 100 << "%\n";
  return result.blocks_per_sm == 12 && result.occupancy() == 0.75 ? 0 : 1;
}
