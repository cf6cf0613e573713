#include "lifeline/memory_warmer.h"

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14's value, for headers older than the kernel
#endif
#endif

namespace lifeline {

namespace {

#if defined(__linux__)
// One thread for the process, started at the first request. Requests are rare (one for each chunk of a large
// ChunkedVector, a few thousand in the benchmark's hour), so a mutex guards them. The warmer is never destroyed and
// its thread never joined: a thread still appending while the process exits (a simulation's worker) may ask it,
// and a thread waiting for work holds nothing.
class Warmer {
public:
    void request(std::span<const MemoryRange> ranges)
    {
        {
            std::lock_guard lock(m_mutex);
            if (m_unsupported)
                return;
            for (const MemoryRange& range : ranges)
                if (range.bytes > 0)
                    m_pending.emplace_back(range.data, range.bytes);
            if (!m_started) {
                std::thread([this] { run(); }).detach();
                m_started = true;
            }
        }
        m_wake.notify_one();
    }

private:
    [[noreturn]] void run()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return !m_pending.empty(); });
            const auto [data, bytes] = m_pending.front();
            m_pending.pop_front();
            lock.unlock();
            // What the memory holds stays as it is, so this may run beside its owner writing there. Memory freed
            // meanwhile answers ENOMEM, which is ignored.
            const bool unsupported = !faultInForWrite(data, bytes) && errno == EINVAL;
            lock.lock();
            if (unsupported) { // a kernel before 5.14: stop asking
                m_unsupported = true;
                m_pending.clear();
            }
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::pair<void*, size_t>> m_pending;
    bool m_started = false;
    bool m_unsupported = false;
};
#endif

} // namespace

bool faultInForWrite(void* data, size_t bytes)
{
#if defined(__linux__)
    // madvise takes whole pages: the pages only partly inside are faulted in too, which is as harmless to whatever
    // else they hold (the allocator's own notes, a neighbour) as to the range.
    static const uintptr_t kPage = uintptr_t(sysconf(_SC_PAGESIZE));
    char* const first = static_cast<char*>(data);
    char* const begin = first - (uintptr_t(first) & (kPage - 1));
    const uintptr_t end = uintptr_t(first) + bytes;
    const size_t length = size_t(((end + kPage - 1) & ~(kPage - 1)) - uintptr_t(begin));
    return bytes > 0 && madvise(begin, length, MADV_POPULATE_WRITE) == 0;
#else
    (void)data;
    (void)bytes;
    errno = EINVAL;
    return false;
#endif
}

void warmAhead(std::span<const MemoryRange> ranges)
{
#if defined(__linux__)
    static Warmer* const warmer = new Warmer; // never destroyed: see Warmer
    warmer->request(ranges);
#else
    (void)ranges;
#endif
}

} // namespace lifeline
