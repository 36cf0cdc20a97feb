// SPDX-License-Identifier: GPL-3.0-or-later
// Job resource strings ("2", "0.5", "2(V100)", "1(nvidia,V100)", "8G,0.5") parsed into exact integer units.
#include "core/queue/resourcerequest.h"

#include "core/io/jsontext.h"
#include "core/model/gpucatalog.h"

#include <algorithm>
#include <cctype>

namespace clusterplanner::core::queue {

namespace {

constexpr long long kMaxGpuCount = 1'000'000;
constexpr long long kMaxMemoryGiB = 1'000'000;
constexpr long long kMiBPerGiB = 1024;
/// Longest vendor or GPU type name: catalog ids are under 40 characters.
constexpr std::size_t kMaxNameChars = 64;

/// A decimal literal as written: digits, optional '.' and up to three decimals, kept exact in thousandths.
struct Decimal
{
    std::size_t position = 0;
    long long whole = 0;
    int thousandths = 0;
    bool hasPoint = false;
};

/// A cursor over the request text that reports errors at its position.
class Reader
{
public:
    explicit Reader(std::string_view text)
        : m_text(text)
    {
        while (m_end > 0 && m_text[m_end - 1] == ' ')
            --m_end;
        while (m_pos < m_end && m_text[m_pos] == ' ')
            ++m_pos;
    }

    bool atEnd() const { return m_pos >= m_end; }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }
    std::size_t pos() const { return m_pos; }
    [[noreturn]] void fail(const std::string& problem, std::size_t at) const
    {
        throw ResourceParseError(m_text, at, problem);
    }
    [[noreturn]] void fail(const std::string& problem) const { fail(problem, m_pos); }

    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }

    Decimal decimal(const char* what);
    std::string name(const char* what);

private:
    void digits(Decimal& number, long long limit);
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_end = m_text.size();
};

void Reader::digits(Decimal& number, long long limit)
{
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
        number.whole = std::min(limit + 1, number.whole * 10 + (peek() - '0'));
        ++m_pos;
    }
}

Decimal Reader::decimal(const char* what)
{
    Decimal number {m_pos};
    if (peek() == '-')
        fail("negative numbers are not allowed");
    if (!std::isdigit(static_cast<unsigned char>(peek())))
        fail(std::string("expected ") + what);
    digits(number, kMaxGpuCount * 1000);
    if (!take('.'))
        return number;
    number.hasPoint = true;
    for (int scale = 100; std::isdigit(static_cast<unsigned char>(peek())); scale /= 10, ++m_pos) {
        if (scale == 0)
            fail("more than 3 decimals (shares are whole milli-GPU)");
        number.thousandths += scale * (peek() - '0');
    }
    return number;
}

std::string Reader::name(const char* what)
{
    const std::size_t start = m_pos;
    while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '-' || peek() == '_' || peek() == '.')
        ++m_pos;
    if (m_pos == start)
        fail(std::string("expected ") + what);
    if (m_pos - start > kMaxNameChars)
        fail("name longer than " + std::to_string(kMaxNameChars) + " characters", start);
    return std::string(m_text.substr(start, m_pos - start));
}

/// "(" [vendor ","] type ")" after a count.
void readGpuType(Reader& in, ResourceRequest& request)
{
    request.gpuType = in.name("a GPU type");
    if (in.take(',')) {
        request.vendor = request.gpuType;
        request.gpuType = in.name("a GPU type after the vendor");
    }
    if (!in.take(')'))
        in.fail("expected ')' after the GPU type");
}

/// count := integer ≥ 1 | decimal in (0, 1).
void applyCount(const Reader& in, const Decimal& count, ResourceRequest& request)
{
    if (!count.hasPoint || (count.whole >= 1)) {
        if (count.hasPoint)
            in.fail("a fractional GPU count must be below 1 (use a whole number for several GPUs)", count.position);
        if (count.whole < 1)
            in.fail("GPU count must be at least 1, or a share in (0, 1)", count.position);
        if (count.whole > kMaxGpuCount)
            in.fail("GPU count is larger than " + std::to_string(kMaxGpuCount), count.position);
        request.gpuCount = static_cast<int>(count.whole);
        return;
    }
    if (count.thousandths == 0)
        in.fail("GPU share must be greater than 0", count.position);
    request.mode = ShareMode::Fractional;
    request.milliGpu = count.thousandths;
}

/// mem "G," frac — the memory number has been read already.
void readMemoryForm(Reader& in, const Decimal& memory, ResourceRequest& request)
{
    if (memory.hasPoint || memory.whole < 1 || memory.whole > kMaxMemoryGiB)
        in.fail("memory must be a whole number of GiB from 1 to " + std::to_string(kMaxMemoryGiB), memory.position);
    if (!in.take(','))
        in.fail("expected \",<compute share>\" after the memory, as in \"8G,0.5\"");
    const Decimal share = in.decimal("a compute share");
    const long long milli = share.whole * 1000 + share.thousandths;
    if (milli < 1 || milli > 1000)
        in.fail("compute share must be in (0, 1]", share.position);
    request.mode = ShareMode::Fractional;
    request.milliGpu = static_cast<int>(milli);
    request.memoryMiB = memory.whole * kMiBPerGiB;
}

bool sameText(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

} // namespace

ResourceParseError::ResourceParseError(std::string_view text, std::size_t position, const std::string& problem)
    : std::invalid_argument(
        "resource \"" + excerpt(text) + "\" at position " + std::to_string(position) + ": " + problem)
    , m_position(position)
{ }

long long ResourceRequest::memoryMiBOn(long long deviceMemoryMiB) const
{
    // Proportional memory is our default for bare shares (docs/methods-scheduling.md §7 table: "0.5 × device").
    return memoryMiB > 0 ? memoryMiB : deviceMemoryMiB * milliGpu / 1000;
}

ResourceRequest parseResourceRequest(std::string_view text)
{
    Reader in(text);
    if (in.atEnd())
        in.fail("empty request (expected e.g. \"2\", \"0.5\", \"2(V100)\" or \"8G,0.5\")");
    const Decimal first = in.decimal("a GPU count or a memory size such as \"8G,0.5\"");
    ResourceRequest request;
    if (in.take('G') || in.take('g')) {
        readMemoryForm(in, first, request);
    } else {
        applyCount(in, first, request);
        if (in.take('('))
            readGpuType(in, request);
    }
    if (!in.atEnd())
        in.fail(std::string("unexpected '") + in.peek() + "'");
    return request;
}

void checkDeviceMemory(const ResourceRequest& request, long long deviceMemoryMiB)
{
    if (request.memoryMiB > deviceMemoryMiB)
        throw std::invalid_argument("resource asks for " + std::to_string(request.memoryMiB)
            + " MiB per GPU but the device has " + std::to_string(deviceMemoryMiB) + " MiB");
}

bool acceptsGpu(const ResourceRequest& request, const GpuSpec& gpu)
{
    if (!request.vendor.empty() && !sameText(request.vendor, gpu.vendor))
        return false;
    const std::string_view id = gpu.id;
    const std::string_view type = request.gpuType;
    return type.empty() || sameText(id, type)
        || (id.size() > type.size() && id[type.size()] == '-' && sameText(id.substr(0, type.size()), type));
}

void checkKnownGpuType(const ResourceRequest& request, const GpuCatalog& catalog)
{
    const auto& gpus = catalog.gpus();
    if (std::none_of(gpus.begin(), gpus.end(), [&](const GpuSpec& gpu) { return acceptsGpu(request, gpu); }))
        throw std::invalid_argument("resource asks for unknown GPU type \""
            + excerpt((request.vendor.empty() ? "" : request.vendor + ",") + request.gpuType) + "\"");
}

} // namespace clusterplanner::core::queue
