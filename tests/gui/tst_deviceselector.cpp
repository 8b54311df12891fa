// The "Run on" selector above the Device panel: this machine, SSH hosts the user adds and
// the targets file's names; a bad address is refused; the choice is remembered.
#include "gui/device/deviceselector.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_deviceselector {

class TestDeviceSelector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void startsOnThisMachine();
    void listsTheTargetsFile();
    void addsAndRemembersAHost();
    void refusesABadAddress();

private:
    QTemporaryDir m_dir;
};

void TestDeviceSelector::initTestCase()
{
    QVERIFY(m_dir.isValid());
    cuwb::test::keepSettingsIn(m_dir.path());
    QFile targets(m_dir.filePath(QStringLiteral("targets.json")));
    QVERIFY(targets.open(QIODevice::WriteOnly));
    targets.write(R"({"targets": [{"name": "lab", "host": "gpu1", "user": "alice"}]})");
    targets.close();
    qputenv("CUWB_TARGETS", targets.fileName().toUtf8());
}

void TestDeviceSelector::startsOnThisMachine()
{
    const DeviceSelector selector;
    QCOMPARE(selector.target(), QString());
    QCOMPARE(selector.combo()->currentText(), QStringLiteral("This machine"));
}

void TestDeviceSelector::listsTheTargetsFile()
{
    DeviceSelector selector;
    QVERIFY(selector.combo()->findText(QStringLiteral("lab (alice@gpu1)")) >= 0);
    QSignalSpy changed(&selector, &DeviceSelector::targetChanged);
    QVERIFY(selector.setTarget(QStringLiteral("lab")));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().first().toString(), QStringLiteral("lab"));
    QCOMPARE(selector.combo()->currentText(), QStringLiteral("lab (alice@gpu1)"));
}

void TestDeviceSelector::addsAndRemembersAHost()
{
    {
        DeviceSelector selector;
        QCOMPARE(selector.target(), QStringLiteral("lab")); // remembered from the last case
        QVERIFY(selector.setTarget(QStringLiteral("bob@gpu2:2222")));
        QCOMPARE(selector.combo()->currentText(), QStringLiteral("bob@gpu2:2222 (SSH)"));
    }
    const DeviceSelector again;
    QCOMPARE(again.target(), QStringLiteral("bob@gpu2:2222"));
    QVERIFY(again.combo()->findData(QStringLiteral("bob@gpu2:2222")) >= 0);
    QVERIFY(again.combo()->findData(QStringLiteral("lab")) >= 0);
}

void TestDeviceSelector::refusesABadAddress()
{
    DeviceSelector selector;
    const QString before = selector.target();
    QSignalSpy changed(&selector, &DeviceSelector::targetChanged);
    QVERIFY(!selector.setTarget(QStringLiteral("gpu3:99999")));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(selector.target(), before);
    QVERIFY(
        DeviceSelector::problemWith(QStringLiteral("gpu3:99999")).contains(QStringLiteral("port")));
    QVERIFY(selector.setTarget(QString())); // back to this machine
    QCOMPARE(selector.combo()->currentText(), QStringLiteral("This machine"));
}

CUWB_TEST_MAIN(TestDeviceSelector)
} // namespace tst_deviceselector
} // namespace

#include "tst_deviceselector.moc"
