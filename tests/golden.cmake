# Golden CLI outputs: each test runs the occcalc binary and compares what it
# prints with an approved file under tests/golden/, byte for byte.
set(golden_dir ${CMAKE_CURRENT_SOURCE_DIR}/golden)

function(occcalc_golden name expected rc)
  cmake_parse_arguments(PARSE_ARGV 3 golden "" "INPUT;STREAM;COLUMNS" "ARGS")
  list(JOIN golden_ARGS "@@" joined)
  add_test(NAME golden.${name}
    COMMAND ${CMAKE_COMMAND} -DOCCCALC=$<TARGET_FILE:occcalc_cli> "-DARGS=${joined}"
            -DEXPECTED=${golden_dir}/${expected} -DEXPECT_RC=${rc}
            -DINPUT=${golden_INPUT} -DSTREAM=${golden_STREAM} -DCOLUMNS=${golden_COLUMNS}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_golden.cmake
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(golden.${name} PROPERTIES LABELS golden)
endfunction()

occcalc_golden(main_text main.txt 0 ARGS --cc 7.0 --threads 128 --regs 37)
occcalc_golden(main_json main.json 0 ARGS --cc 7.0 --threads 128 --regs 37 --json)
occcalc_golden(hopper_text hopper.txt 0
  ARGS --gpu "H100 SXM5 80GB" --threads 256 --regs 64 --smem 2K --dyn-smem 48K --barriers 3)
occcalc_golden(hopper_json hopper.json 0
  ARGS --gpu "H100 SXM5 80GB" --threads 256 --regs 64 --smem 2K --dyn-smem 48K --barriers 3 --json)
occcalc_golden(kepler_cache_text kepler.txt 0 ARGS --cc 3.5 --threads 192 --regs 40 --smem 12K --cache l1)
occcalc_golden(tesla_text tesla.txt 0 ARGS --cc 1.0 --threads 256 --regs 10)
occcalc_golden(cannot_run_text cannot_run.txt 0 ARGS --cc 8.6 --threads 128 --regs 32 --dyn-smem 100K)
occcalc_golden(cannot_run_json cannot_run.json 0 ARGS --cc 8.6 --threads 128 --regs 32 --dyn-smem 100K --json)
occcalc_golden(batch batch.jsonl 0 ARGS batch INPUT ${PROJECT_SOURCE_DIR}/examples/requests.jsonl)
occcalc_golden(batch_errors batch_errors.jsonl 2 ARGS batch INPUT ${golden_dir}/batch_errors.in.jsonl)
occcalc_golden(list_archs list_archs.txt 0 ARGS list archs)
occcalc_golden(waves_text waves.txt 0 ARGS --gpu "Tesla V100-SXM2-16GB" --threads 256 --regs 48 --grid 138)
occcalc_golden(gate_failed gate_failed.err 1 STREAM stderr
  ARGS --cc 7.0 --threads 128 --regs 37 --min-occupancy 80)
occcalc_golden(bad_threads bad_threads.err 2 STREAM stderr ARGS --cc 7.0 --threads 2048x --regs 37)
occcalc_golden(bad_gpu bad_gpu.err 2 STREAM stderr ARGS --gpu "RTX 4900" --threads 128 --regs 37)

# inspect and check, on the fixtures (paths relative to the source tree).
set(fx tests/fixtures/inspect)
occcalc_golden(inspect_text inspect.txt 0 ARGS inspect ${fx}/kernels.sm_90.cubin --threads 256)
occcalc_golden(inspect_wide inspect_wide.txt 0 ARGS inspect ${fx}/kernels.sm_90.cubin --wide)
# 60 columns: the spill column stays while a kernel spills (demo::spilling, 952 bytes), and the
# columns left out are named.
occcalc_golden(inspect_spills_narrow inspect_spills_narrow.txt 0 COLUMNS 60 ARGS inspect ${fx}/kernels.sm_80.log)
occcalc_golden(inspect_columns inspect_columns.txt 0
  ARGS inspect ${fx}/kernels.sm_90.cubin ${fx}/../amd/kernels.gfx90a.o --columns occupancy,regs,sgprs,kernel)
occcalc_golden(diff_text diff.txt 0 ARGS diff ${fx}/diff_old.sm_80.cubin ${fx}/diff_new.sm_80.cubin)
occcalc_golden(inspect_json inspect.json 0 ARGS inspect ${fx}/cluster.sm_90.cubin ${fx}/app_rdc.log --json)
occcalc_golden(inspect_csv inspect.csv 0 ARGS inspect ${fx}/zstd.fatbin ${fx}/lz4.fatbin --kernel static --csv)
occcalc_golden(inspect_stdin inspect_stdin.txt 0 ARGS inspect - --arch sm_86 --threads 128
  INPUT ${PROJECT_SOURCE_DIR}/${fx}/multiarch.log)
occcalc_golden(check_pass check_pass.txt 0 ARGS check --policy examples/occupancy-policy.json ${fx}/app)
occcalc_golden(check_fail check_fail.txt 1 ARGS check --policy tests/golden/strict-policy.json
  ${fx}/kernels.sm_90.log ${fx}/kernels.sm_90.cubin ${fx}/kernels.sm_80.cubin --kernel "spill|static_smem|scale<double")
occcalc_golden(check_fail_json check_fail.json 1 ARGS check --policy tests/golden/strict-policy.json
  ${fx}/kernels.sm_90.cubin --kernel "static_smem|scale" --json)
occcalc_golden(check_bad_policy check_bad_policy.err 2 STREAM stderr
  ARGS check --policy tests/golden/bad-policy.json ${fx}/app)
occcalc_golden(inspect_corrupt inspect_corrupt.err 2 STREAM stderr ARGS inspect ${fx}/kernels.cu)

# suggest and sweep.
occcalc_golden(suggest_text suggest.txt 0 ARGS suggest --gpu "A100-SXM4-80GB" --regs 37 --threads 128 --blocks 2)
occcalc_golden(suggest_json suggest.json 0 ARGS suggest --cc 7.0 --regs 64 --threads 128 --target 75 --json)
occcalc_golden(sweep_text sweep.txt 0 ARGS sweep --vary regs --cc 7.0 --threads 128 --regs 37 --ascii)
occcalc_golden(sweep_csv sweep.csv 0 ARGS sweep --vary threads --cc 8.6 --threads 96 --regs 32 --csv)
occcalc_golden(sweep_json sweep.json 0 ARGS sweep --vary barriers --cc 9.0 --threads 256 --regs 32 --json)
# Thread block clusters: measured and ranged products, a family, a cluster sweep.
occcalc_golden(cluster_text cluster.txt 0 ARGS --gpu H100 --threads 128 --regs 32 --smem 40K --cluster 4x2)
occcalc_golden(cluster_json cluster.json 0 ARGS --gpu "RTX 5090" --threads 256 --regs 40 --cluster 8 --json)
occcalc_golden(cluster_sweep_text cluster_sweep.txt 0 ARGS sweep --vary cluster --gpu "H100 PCIe" --threads 384 --regs 40)
occcalc_golden(cluster_sweep_csv cluster_sweep.csv 0 ARGS sweep --vary cluster --gpu H200 --threads 128 --regs 32 --csv)
occcalc_golden(cluster_sweep_json cluster_sweep.json 0
  ARGS sweep --vary cluster --gpu H200 --threads 1024 --regs 32 --dyn-smem 100K --from 2 --step 2 --json)

# AMD: one per model, and a VLIW device.
occcalc_golden(limits_text limits.txt 0 ARGS limits --cc 9.0 --threads 256)
occcalc_golden(limits_json limits.json 0 ARGS limits --cc 8.6 --threads 128 --regs 40 --json)
occcalc_golden(limits_none limits_none.txt 0 ARGS limits --cc 9.0 --threads 256 --smem 300K)
occcalc_golden(amd_limits_text amd_limits.txt 0 ARGS limits --gfx gfx90a --threads 256)
occcalc_golden(amd_llvm_suggest_text amd_llvm_suggest.txt 0
  ARGS suggest --gfx gfx90a --model llvm --threads 256 --vgprs 128 --sgprs 32 --lds 16K)
occcalc_golden(amd_llvm_suggest_json amd_llvm_suggest.json 0
  ARGS suggest --gfx gfx900 --model llvm --threads 256 --vgprs 40 --sgprs 100 --lds 8K --target 90 --json)
occcalc_golden(amd_limits_json amd_limits.json 0 ARGS limits --gfx gfx1100 --threads 256 --json)
occcalc_golden(amd_llvm_text amd_llvm.txt 0 ARGS --gfx gfx90a --threads 256 --vgprs 128 --sgprs 32 --lds 16K)
occcalc_golden(amd_generic_text amd_generic.txt 0 ARGS --gfx gfx11-generic --threads 256 --vgprs 96 --lds 48K)
occcalc_golden(amd_gfx1250_text amd_gfx1250.txt 0 ARGS --gfx gfx1250 --threads 256 --vgprs 74 --lds 64K)
occcalc_golden(amd_llvm_json amd_llvm.json 0 ARGS --gpu "Instinct MI300X" --threads 1024 --vgprs 64 --agprs 64 --json)
occcalc_golden(amd_wgp_text amd_wgp.txt 0 ARGS --gfx gfx1100 --wave32 --wgp-mode --threads 256 --vgprs 96 --lds 32K)
occcalc_golden(amd_hip_text amd_hip.txt 0 ARGS --gpu "RX 7900 XTX" --model hip --threads 256 --vgprs 96 --grid 960)
occcalc_golden(amd_rcp_text amd_rcp.txt 0 ARGS --gpu "Radeon HD 7770" --model rcp --threads 256 --vgprs 11 --sgprs 20 --lds 4096)
occcalc_golden(amd_vliw_text amd_vliw.txt 0 ARGS --gpu "Radeon HD 5870" --threads 256 --vgprs 40)
occcalc_golden(amd_list list_amd.txt 0 ARGS list amd)
occcalc_golden(amd_bad_wave amd_bad_wave.err 2 STREAM stderr ARGS --gfx gfx90a --wave32 --threads 64 --vgprs 8)
set(amdfx tests/fixtures/amd)
occcalc_golden(amd_inspect_text amd_inspect.txt 0 ARGS inspect ${amdfx}/kernels.gfx90a.o ${amdfx}/app_compressed.o)
occcalc_golden(amd_inspect_waves amd_inspect_waves.txt 0 ARGS inspect ${amdfx}/kernels.gfx90a.o --columns arch,regs,block,waves,occupancy,kernel)
occcalc_golden(amd_remarks_unread amd_remarks_unread.txt 0 ARGS inspect ${amdfx}/call22.gfx90a.remarks --arch gfx90a)
occcalc_golden(amd_inspect_json amd_inspect.json 0 ARGS inspect ${amdfx}/mfma.gfx90a.o --json)
occcalc_golden(amd_inspect_model amd_inspect_hip.txt 0 ARGS inspect ${amdfx}/kernels.hipfb --model hip --threads 256 --arch gfx1100)
occcalc_golden(amd_sweep_text amd_sweep.txt 0 ARGS sweep --vary vgprs --gfx gfx90a --threads 256 --vgprs 128 --sgprs 32 --lds 16K --ascii)
occcalc_golden(amd_suggest_text amd_suggest.txt 0 ARGS suggest --gpu "Instinct MI210" --vgprs 128 --sgprs 32 --lds 24K --max-threads 256)

# The vendor x format cells the redesign must keep byte for byte.
occcalc_golden(amd_suggest_json amd_suggest.json 0
  ARGS suggest --gpu "Instinct MI210" --vgprs 128 --sgprs 32 --lds 24K --max-threads 256 --json)
occcalc_golden(amd_sweep_json amd_sweep.json 0
  ARGS sweep --vary vgprs --gfx gfx90a --threads 256 --vgprs 128 --sgprs 32 --lds 16K --json)
occcalc_golden(amd_sweep_csv amd_sweep.csv 0 ARGS sweep --vary lds --gfx gfx1100 --threads 256 --vgprs 96 --csv)
occcalc_golden(list_json list.json 0 ARGS list --json)
occcalc_golden(amd_check_json amd_check.json 1
  ARGS check --policy tests/golden/strict-policy.json ${amdfx}/kernels.gfx90a.o --json)
