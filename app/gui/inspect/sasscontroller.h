// SassController: the SASS of the current compile, disassembled off the GUI thread. nvdisasm
// runs as a child process (core/inspect/nvdisasm.h) on a thread of this controller's own, one
// job at a time, the newest compile winning (JobTracker). Each CUBIN is disassembled once: the
// listings are kept in a small cache shared with the jobs, so going back to an earlier compile
// (an undo, another tab) only formats the text again. It works only while the SASS is wanted
// (the SASS tab is on screen, or an inspection needs the listing): a compile that arrives
// meanwhile waits, and only the newest one is disassembled when it is.
#pragma once

#include "compiler/compileresult.h"
#include "gui/common/jobtracker.h"
#include "gui/inspect/sassdocument.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <memory>
#include <optional>

namespace cuwb {

class SassController : public QObject
{
    Q_OBJECT

public:
    explicit SassController(QObject *parent = nullptr);
    ~SassController() override;

    // The compile to show and the source it was compiled from; disassembled now when active.
    void setCompile(const CompileResult &result, const QString &source);
    // No compile (no document): the document becomes null.
    void clear();
    void setActive(bool active);
    [[nodiscard]] bool isActive() const { return m_active; }
    [[nodiscard]] bool isBusy() const { return m_jobs.isBusy(); }
    // The newest document built; null before the first or after clear().
    [[nodiscard]] const std::shared_ptr<const SassDocument> &document() const { return m_document; }
    // Whether the document shown is for the newest compile given (nothing waits or runs).
    [[nodiscard]] bool isCurrent() const { return !m_pending && !m_jobs.isBusy() && m_document; }
    // How many times nvdisasm ran: the cache's misses.
    [[nodiscard]] int disassemblyCount() const;

    static constexpr std::size_t kCacheEntries = 16;

Q_SIGNALS:
    void disassemblyStarted();
    void documentReady(const std::shared_ptr<const cuwb::SassDocument> &document);

private:
    struct Input
    {
        bool success = false;
        std::string fileName;
        CompileOptions options;
        std::string cubin;
        std::string source;
    };
    struct Cache;

    void submitPending();

    std::shared_ptr<Cache> m_cache; // shared with the jobs, which may outlive a request
    QThreadPool m_pool;
    JobTracker<std::shared_ptr<const SassDocument>> m_jobs;
    std::optional<Input> m_pending; // waits until active
    // The cubin and source of the newest input submitted, to skip an identical compile.
    std::optional<Input> m_submitted;
    std::shared_ptr<const SassDocument> m_document;
    bool m_active = false;
};

} // namespace cuwb

Q_DECLARE_METATYPE(std::shared_ptr<const cuwb::SassDocument>)
