#include "gui/inspect/sasscontroller.h"

#include "gui/common/qtconvert.h"
#include "util/text.h"

#include <exception>
#include <list>
#include <mutex>
#include <utility>

namespace cuwb {

// The listings of the last few CUBINs, newest first. Jobs read and fill it on the pool thread.
struct SassController::Cache
{
    std::mutex mutex;
    std::list<std::pair<std::string, std::shared_ptr<const SassDisassembly>>> entries;
    int disassemblies = 0;

    std::shared_ptr<const SassDisassembly> find(const std::string &cubin)
    {
        const std::lock_guard lock(mutex);
        for (auto it = entries.begin(); it != entries.end(); ++it) {
            if (it->first == cubin) {
                entries.splice(entries.begin(), entries, it);
                return entries.front().second;
            }
        }
        return nullptr;
    }

    void add(const std::string &cubin, std::shared_ptr<const SassDisassembly> disassembly)
    {
        const std::lock_guard lock(mutex);
        ++disassemblies;
        entries.emplace_front(cubin, std::move(disassembly));
        while (entries.size() > kCacheEntries)
            entries.pop_back();
    }
};

namespace {} // namespace

SassController::SassController(QObject *parent)
    : QObject(parent)
    , m_cache(std::make_shared<Cache>())
    , m_jobs(this, &m_pool, [this](quint64, std::shared_ptr<const SassDocument> &&document) {
        m_document = std::move(document);
        Q_EMIT documentReady(m_document);
    })
{
    qRegisterMetaType<std::shared_ptr<const cuwb::SassDocument>>();
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("cuwb-sass"));
}

SassController::~SassController()
{
    m_pool.waitForDone();
}

int SassController::disassemblyCount() const
{
    const std::lock_guard lock(m_cache->mutex);
    return m_cache->disassemblies;
}

void SassController::setCompile(const CompileResult &result, const QString &source)
{
    Input input;
    input.success = result.success;
    input.fileName = result.fileName;
    input.options = result.options;
    input.cubin = result.cubin;
    input.source = toStdString(source);
    // A recompile of the same text (options toggled back, a tab switch) changes nothing shown.
    if (m_submitted && m_submitted->cubin == input.cubin && m_submitted->source == input.source &&
        m_submitted->fileName == input.fileName && m_submitted->success == input.success &&
        !m_pending)
        return;
    m_pending = std::move(input);
    if (m_active)
        submitPending();
}

void SassController::clear()
{
    m_pending.reset();
    m_submitted.reset();
    // A job in flight is superseded by an empty one, so that its document is dropped.
    if (m_jobs.isBusy())
        m_jobs.submit([] { return std::shared_ptr<const SassDocument>(); });
    m_document.reset();
}

void SassController::setActive(bool active)
{
    m_active = active;
    if (m_active && m_pending)
        submitPending();
}

void SassController::submitPending()
{
    Input input = std::move(*m_pending);
    m_pending.reset();
    m_submitted = input;
    Q_EMIT disassemblyStarted();
    m_jobs.submit([cache = m_cache, input = std::move(input)] {
        std::shared_ptr<const SassDisassembly> disassembly =
            input.cubin.empty() ? nullptr : cache->find(input.cubin);
        if (!disassembly) {
            CompileResult compiled;
            compiled.success = input.success;
            compiled.fileName = input.fileName;
            compiled.options = input.options;
            compiled.cubin = input.cubin;
            SassDisassembly made;
            try {
                made = disassemble(compiled, findNvdisasm());
            } catch (const std::exception &error) {
                made.status = SassStatus::ToolFailed;
                made.message = std::string("nvdisasm could not be run: ") + error.what();
            }
            disassembly = std::make_shared<const SassDisassembly>(std::move(made));
            // Only a listing is kept: a missing tool may be installed before the next compile.
            if (disassembly->ok())
                cache->add(input.cubin, disassembly);
        }
        return std::make_shared<const SassDocument>(
            buildSassDocument(disassembly, splitLines(input.source), input.fileName));
    });
}

} // namespace cuwb
