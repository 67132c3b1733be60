// Loads the installed tables and checks the Best Practices Guide example,
// and RCP's published Cape Verde example through the AMD models.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <occcalc/occcalc.hpp>
#include <occcalc/tables/load.hpp>  // the umbrella holds no JSON reader

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
  const occcalc::table amd = occcalc::load_tables(
      {{"amd-targets", read(dir + "/amd-targets.json")}, {"amd-gpus", read(dir + "/amd-gpus.json")}});
  occcalc::request req;
  req.gpu = "Radeon HD 7770";  // Cape Verde
  req.model = "rcp";
  req.threads = "256";
  req.vgprs = "11";
  req.sgprs = "20";
  req.lds = "4096";
  const auto r = occcalc::resolve_amd(amd, req);
  const auto cape_verde = occcalc::compute_amd_occupancy(*r.target, r.kernel, r.mode, r.model, r.work_group_size);
  std::cout << "Cape Verde: " << cape_verde.occupancy() * 100 << "%\n";
  return result.blocks_per_sm == 12 && result.occupancy() == 0.75 && cape_verde.active_waves == 32 &&
                 cape_verde.max_waves == 40
             ? 0
             : 1;
}
