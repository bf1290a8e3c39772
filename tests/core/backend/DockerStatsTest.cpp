// The numbers of a container stats answer, computed as `docker stats` computes them, from answers of the engines on
// the development machine (Docker 20.10 and Podman 4.3 on cgroup v1, a Python process holding 50 MB) and, for cgroup
// v2, an answer in the shape the Engine API documents for it (this machine has no cgroup v2 engine to capture from).
#include "backend/DockerStats.h"

#include <QJsonDocument>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

// Docker 20.10, cgroup v1, GET /v1.41/containers/ID/stats?stream=false (two readings a second apart).
const char *const kDockerV1 =
    R"({"read":"2026-11-30T20:48:59.644563767Z","preread":"2026-11-30T20:48:58.641462733Z","pids_stats":{"current":1,)"
    R"("limit":64},"blkio_stats":{"io_service_bytes_recursive":[],"io_serviced_recursive":[],"io_queue_recursive":[],)"
    R"("io_service_time_recursive":[],"io_wait_time_recursive":[],"io_merged_recursive":[],"io_time_recursive":[],"se)"
    R"(ctors_recursive":[]},"num_procs":0,"storage_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":647238174,"percp)"
    R"(u_usage":[487440651,159797523],"usage_in_kernelmode":30000000,"usage_in_usermode":610000000},"system_cpu_usage)"
    R"(":47687600000000,"online_cpus":2,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"pr)"
    R"(ecpu_stats":{"cpu_usage":{"total_usage":496652002,"percpu_usage":[336854479,159797523],"usage_in_kernelmode":3)"
    R"(0000000,"usage_in_usermode":460000000},"system_cpu_usage":47685550000000,"online_cpus":2,"throttling_data":{"p)"
    R"(eriods":0,"throttled_periods":0,"throttled_time":0}},"memory_stats":{"usage":55898112,"max_usage":55898112,"st)"
    R"(ats":{"active_anon":4096,"active_file":0,"cache":0,"dirty":0,"hierarchical_memory_limit":268435456,"hierarchic)"
    R"(al_memsw_limit":536870912,"inactive_anon":55267328,"inactive_file":4096,"mapped_file":0,"pgfault":14620,"pgmaj)"
    R"(fault":0,"pgpgin":14245,"pgpgout":750,"rss":55275520,"rss_huge":0,"total_active_anon":4096,"total_active_file")"
    R"(:0,"total_cache":0,"total_dirty":0,"total_inactive_anon":55267328,"total_inactive_file":4096,"total_mapped_fil)"
    R"(e":0,"total_pgfault":14620,"total_pgmajfault":0,"total_pgpgin":14245,"total_pgpgout":750,"total_rss":55275520,)"
    R"("total_rss_huge":0,"total_unevictable":0,"total_writeback":0,"unevictable":0,"writeback":0},"limit":268435456})"
    R"(,"name":"/stats-capture-wt","id":"4b107ba51f47a5e30f675b8873e7a2c245ccbd265ebab94e32fa905a23fdc951","networks")"
    R"(:{"eth0":{"rx_bytes":736,"rx_packets":8,"rx_errors":0,"rx_dropped":0,"tx_bytes":0,"tx_packets":0,"tx_errors":0)"
    R"(,"tx_dropped":0}}})";

// The same API on a cgroup v2 host: no percpu_usage, memory_stats.stats with the v2 names (anon, file,
// inactive_file), no total_* fields.
const char *const kDockerV2 =
    R"({"read":"2026-11-30T20:55:01.123456789Z","preread":"2026-11-30T20:55:00.120000000Z","pids_stats":{"current":3,)"
    R"("limit":64},"blkio_stats":{"io_service_bytes_recursive":null,"io_serviced_recursive":null,"io_queue_recursive")"
    R"(:null,"io_service_time_recursive":null,"io_wait_time_recursive":null,"io_merged_recursive":null,"io_time_recur)"
    R"(sive":null,"sectors_recursive":null},"num_procs":0,"storage_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":)"
    R"(2650000000,"usage_in_kernelmode":150000000,"usage_in_usermode":2500000000},"system_cpu_usage":96000000000000,")"
    R"(online_cpus":4,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"precpu_stats":{"cpu_)"
    R"(usage":{"total_usage":1150000000,"usage_in_kernelmode":100000000,"usage_in_usermode":1050000000},"system_cpu_u)"
    R"(sage":95996000000000,"online_cpus":4,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}})"
    R"(,"memory_stats":{"usage":62914560,"stats":{"active_anon":0,"active_file":1048576,"anon":53477376,"anon_thp":0,)"
    R"("file":9437184,"file_dirty":0,"file_mapped":0,"file_writeback":0,"inactive_anon":53477376,"inactive_file":8388)"
    R"(608,"kernel_stack":16384,"pgactivate":0,"pgdeactivate":0,"pgfault":14000,"pglazyfree":0,"pglazyfreed":0,"pgmaj)"
    R"(fault":0,"pgrefill":0,"pgscan":0,"pgsteal":0,"shmem":0,"slab":0,"slab_reclaimable":0,"slab_unreclaimable":0,"s)"
    R"(ock":0,"thp_collapse_alloc":0,"thp_fault_alloc":0,"unevictable":0,"workingset_activate":0,"workingset_noderecl)"
    R"(aim":0,"workingset_refault":0},"limit":268435456},"name":"/stats-v2","id":"0123456789ab","networks":{}})";

// Podman 4.3's compatible API, stream=false, taken one second apart: one reading each, no precpu_stats, and only
// usage and limit in memory_stats.
const char *const kPodmanFirst =
    R"({"read":"2026-11-30T20:50:22.422770652Z","preread":"0001-01-01T00:00:00Z","pids_stats":{"current":1},"blkio_st)"
    R"(ats":{"io_service_bytes_recursive":[],"io_serviced_recursive":null,"io_queue_recursive":null,"io_service_time_)"
    R"(recursive":null,"io_wait_time_recursive":null,"io_merged_recursive":null,"io_time_recursive":null,"sectors_rec)"
    R"(ursive":null},"num_procs":0,"storage_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":1408658343,"percpu_usag)"
    R"(e":[0,1408658343],"usage_in_kernelmode":8000000,"usage_in_usermode":1400658343},"system_cpu_usage":38153420918)"
    R"(485,"online_cpus":2,"cpu":0,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"precpu_)"
    R"(stats":{"cpu_usage":{"total_usage":0,"usage_in_kernelmode":0,"usage_in_usermode":0},"cpu":0,"throttling_data":)"
    R"({"periods":0,"throttled_periods":0,"throttled_time":0}},"memory_stats":{"usage":4071424,"limit":268435456},"na)"
    R"(me":"stats-capture-wt","Id":"db12492c5bdccbc3cabdcad2ff775360dc13407e474c943568e561a42f7cf3f8","networks":{"ne)"
    R"(twork":{"rx_bytes":472,"rx_packets":0,"rx_errors":0,"rx_dropped":0,"tx_bytes":1096,"tx_packets":0,"tx_errors":)"
    R"(0,"tx_dropped":0}}})";
const char *const kPodmanSecond =
    R"({"read":"2026-11-30T20:50:23.449845035Z","preread":"0001-01-01T00:00:00Z","pids_stats":{"current":1},"blkio_st)"
    R"(ats":{"io_service_bytes_recursive":[],"io_serviced_recursive":null,"io_queue_recursive":null,"io_service_time_)"
    R"(recursive":null,"io_wait_time_recursive":null,"io_merged_recursive":null,"io_time_recursive":null,"sectors_rec)"
    R"(ursive":null},"num_procs":0,"storage_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":2111641275,"percpu_usag)"
    R"(e":[0,2111641275],"usage_in_kernelmode":8000000,"usage_in_usermode":2103641275},"system_cpu_usage":38155474131)"
    R"(892,"online_cpus":2,"cpu":0,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"precpu_)"
    R"(stats":{"cpu_usage":{"total_usage":0,"usage_in_kernelmode":0,"usage_in_usermode":0},"cpu":0,"throttling_data":)"
    R"({"periods":0,"throttled_periods":0,"throttled_time":0}},"memory_stats":{"usage":4071424,"limit":268435456},"na)"
    R"(me":"stats-capture-wt","Id":"db12492c5bdccbc3cabdcad2ff775360dc13407e474c943568e561a42f7cf3f8","networks":{"ne)"
    R"(twork":{"rx_bytes":472,"rx_packets":0,"rx_errors":0,"rx_dropped":0,"tx_bytes":1096,"tx_packets":0,"tx_errors":)"
    R"(0,"tx_dropped":0}}})";

} // namespace

TEST(DockerStatsTest, cgroupV1MemoryLeavesOutTheInactiveFileCacheAndCpuComesFromThePreviousReading)
{
    const QJsonObject sample = parse(kDockerV1);
    ASSERT_FALSE(sample.isEmpty());
    EXPECT_TRUE(DockerStats::hasPreviousCpu(sample));
    const ContainerStats stats = DockerStats::fromSample(sample);
    EXPECT_EQ(stats.memoryBytes, 55898112 - 4096); // usage - total_inactive_file
    EXPECT_EQ(stats.memoryLimitBytes, 268435456);
    EXPECT_EQ(stats.pids, 1);
    // (647238174 - 496652002) / (47687600000000 - 47685550000000) * 2 CPUs
    EXPECT_NEAR(stats.cpuCores, 0.146913, 1e-6);
    const QDateTime read = QDateTime::fromString(QStringLiteral("2026-11-30T20:48:59.644Z"), Qt::ISODateWithMs);
    EXPECT_LE(std::abs(stats.sampledAt.msecsTo(read)), 1) << stats.sampledAt.toString(Qt::ISODateWithMs).toStdString();
}

TEST(DockerStatsTest, cgroupV2MemoryLeavesOutInactiveFile)
{
    const ContainerStats stats = DockerStats::fromSample(parse(kDockerV2));
    EXPECT_EQ(stats.memoryBytes, 62914560 - 8388608);
    EXPECT_EQ(stats.memoryLimitBytes, 268435456);
    EXPECT_EQ(stats.pids, 3);
    EXPECT_NEAR(stats.cpuCores, 1.5, 1e-9); // 1.5e9 ns of 4e9 ns on 4 CPUs
}

TEST(DockerStatsTest, podmanSendsOneReadingSoCpuNeedsTwoSamples)
{
    const QJsonObject first = parse(kPodmanFirst);
    const QJsonObject second = parse(kPodmanSecond);
    ASSERT_FALSE(first.isEmpty());
    EXPECT_FALSE(DockerStats::hasPreviousCpu(first));
    const ContainerStats stats = DockerStats::fromSample(second);
    EXPECT_EQ(stats.cpuCores, 0) << "no previous reading: not computed from a zero";
    EXPECT_EQ(stats.memoryBytes, 4071424) << "Podman sends no breakdown: its usage as it is";
    EXPECT_EQ(stats.memoryLimitBytes, 268435456);
    EXPECT_EQ(stats.pids, 1);
    // A busy loop on a busy host: 702982932 ns of CPU time in the 1.027074383 s between the readings.
    EXPECT_NEAR(DockerStats::cpuCoresBetween(first, second), 0.702982932 / 1.027074383, 1e-9);
    EXPECT_EQ(DockerStats::cpuCoresBetween(second, first), 0) << "out of order: nothing, not a negative use";
}

TEST(DockerStatsTest, aStoppedContainersEmptyAnswerIsZeroAndUnknownPids)
{
    const ContainerStats stats = DockerStats::fromSample(
        parse(R"({"read":"0001-01-01T00:00:00Z","pids_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":0},)"
              R"("throttling_data":{}},"precpu_stats":{"cpu_usage":{"total_usage":0},"throttling_data":{}},)"
              R"("memory_stats":{}})"));
    EXPECT_EQ(stats.memoryBytes, 0);
    EXPECT_EQ(stats.memoryLimitBytes, 0);
    EXPECT_EQ(stats.cpuCores, 0);
    EXPECT_EQ(stats.pids, -1);
    EXPECT_TRUE(stats.sampledAt.isValid()) << "the time it was asked when the engine gives none";
}

TEST(DockerStatsTest, readTimesKeepTheirNanoseconds)
{
    EXPECT_EQ(DockerStats::nanosecondsSinceEpoch(QStringLiteral("1970-01-01T00:00:01.000000002Z")), 1000000002);
    EXPECT_EQ(DockerStats::nanosecondsSinceEpoch(QStringLiteral("1970-01-01T00:00:01.5Z")), 1500000000);
    EXPECT_EQ(DockerStats::nanosecondsSinceEpoch(QStringLiteral("1970-01-01T01:00:00+01:00")), 0);
    EXPECT_EQ(DockerStats::nanosecondsSinceEpoch(QStringLiteral("1970-01-01T00:00:03Z")), 3000000000);
    EXPECT_EQ(DockerStats::nanosecondsSinceEpoch(QStringLiteral("yesterday")), 0);
}
