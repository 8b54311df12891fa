// ElementType: every CUDA spelling, sizes and alignments as vector_types.h has them, names
// that read back, and NumPy descriptors.
#include "compilertesthelpers.h"

#include "kernel/elementtype.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

Q_DECLARE_METATYPE(cuwb::ScalarKind)

namespace {
namespace tst_elementtype {

class TestElementType : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesSpellings_data();
    void parsesSpellings();
    void rejectsOthers();
    void namesRoundTrip();
    void numpyDescriptors();
};

void TestElementType::parsesSpellings_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<ScalarKind>("scalar");
    QTest::addColumn<int>("lanes");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("align");
    auto row = [](const char *text, ScalarKind kind, int lanes, int size, int align) {
        QTest::newRow(text) << QString::fromUtf8(text) << kind << lanes << size << align;
    };
    row("char", ScalarKind::Int8, 1, 1, 1);
    row("signed char", ScalarKind::Int8, 1, 1, 1);
    row("unsigned  char", ScalarKind::UInt8, 1, 1, 1);
    row("short", ScalarKind::Int16, 1, 2, 2);
    row("unsigned short int", ScalarKind::UInt16, 1, 2, 2);
    row("int", ScalarKind::Int32, 1, 4, 4);
    row("unsigned", ScalarKind::UInt32, 1, 4, 4);
    row("long long", ScalarKind::Int64, 1, 8, 8);
    row("unsigned long long", ScalarKind::UInt64, 1, 8, 8);
    row("int8_t", ScalarKind::Int8, 1, 1, 1);
    row("std::uint32_t", ScalarKind::UInt32, 1, 4, 4);
    row("uint64_t", ScalarKind::UInt64, 1, 8, 8);
    row("size_t", ScalarKind::UInt64, 1, 8, 8);
    row("ptrdiff_t", ScalarKind::Int64, 1, 8, 8);
    row("bool", ScalarKind::Bool, 1, 1, 1);
    row("half", ScalarKind::Float16, 1, 2, 2);
    row("__half", ScalarKind::Float16, 1, 2, 2);
    row("__nv_bfloat16", ScalarKind::BFloat16, 1, 2, 2);
    row("nv_bfloat16", ScalarKind::BFloat16, 1, 2, 2);
    row("float", ScalarKind::Float32, 1, 4, 4);
    row("double", ScalarKind::Float64, 1, 8, 8);
    row("char4", ScalarKind::Int8, 4, 4, 4);
    row("uchar2", ScalarKind::UInt8, 2, 2, 2);
    row("uchar3", ScalarKind::UInt8, 3, 3, 1);
    row("short2", ScalarKind::Int16, 2, 4, 4);
    row("ushort4", ScalarKind::UInt16, 4, 8, 8);
    row("int2", ScalarKind::Int32, 2, 8, 8);
    row("uint3", ScalarKind::UInt32, 3, 12, 4);
    row("int4", ScalarKind::Int32, 4, 16, 16);
    row("long2", ScalarKind::Int64, 2, 16, 16);
    row("ulong1", ScalarKind::UInt64, 1, 8, 8);
    row("longlong2", ScalarKind::Int64, 2, 16, 16);
    row("longlong4_16a", ScalarKind::Int64, 4, 32, 16);
    row("ulonglong3", ScalarKind::UInt64, 3, 24, 8);
    row("float1", ScalarKind::Float32, 1, 4, 4);
    row("float2", ScalarKind::Float32, 2, 8, 8);
    row("float3", ScalarKind::Float32, 3, 12, 4);
    row("float4", ScalarKind::Float32, 4, 16, 16);
    row("double2", ScalarKind::Float64, 2, 16, 16);
    row("double3", ScalarKind::Float64, 3, 24, 8);
    row("half2", ScalarKind::Float16, 2, 4, 4);
    row("__half2", ScalarKind::Float16, 2, 4, 4);
    row("__nv_bfloat162", ScalarKind::BFloat16, 2, 4, 4);
}

void TestElementType::parsesSpellings()
{
    QFETCH(QString, text);
    QFETCH(ScalarKind, scalar);
    QFETCH(int, lanes);
    QFETCH(int, size);
    QFETCH(int, align);
    const auto type = parseElementType(text.toStdString());
    QVERIFY(type.has_value());
    QCOMPARE(type->scalar, scalar);
    QCOMPARE(type->lanes, lanes);
    QCOMPARE(int(type->sizeBytes()), size);
    QCOMPARE(int(type->alignBytes()), align);
}

void TestElementType::rejectsOthers()
{
    for (const char *text : {"", "void", "float5", "float0", "Foo", "float*", "int2_16a",
                             "double4_32a", "struct P", "unsigned float"})
        QVERIFY2(!parseElementType(text).has_value(), text);
}

void TestElementType::namesRoundTrip()
{
    const ScalarKind kinds[] = {ScalarKind::Bool,    ScalarKind::Int8,     ScalarKind::UInt8,
                                ScalarKind::Int16,   ScalarKind::UInt16,   ScalarKind::Int32,
                                ScalarKind::UInt32,  ScalarKind::Int64,    ScalarKind::UInt64,
                                ScalarKind::Float16, ScalarKind::BFloat16, ScalarKind::Float32,
                                ScalarKind::Float64};
    for (const ScalarKind kind : kinds) {
        const ElementType scalar{kind, 1};
        QCOMPARE(parseElementType(scalar.name()), std::optional<ElementType>(scalar));
        if (kind == ScalarKind::Bool || kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16)
            continue;
        for (int lanes = 2; lanes <= 4; ++lanes) {
            const ElementType vector{kind, lanes};
            QCOMPARE(parseElementType(vector.name()), std::optional<ElementType>(vector));
        }
    }
    QCOMPARE(ElementType({ScalarKind::Float32, 4}).name(), std::string("float4"));
    QCOMPARE(ElementType({ScalarKind::UInt32, 1}).name(), std::string("uint32_t"));
    QCOMPARE(ElementType({ScalarKind::Float16, 2}).name(), std::string("half2"));
    QCOMPARE(std::string(scalarName(ScalarKind::Int32)), std::string("int32"));
    QVERIFY(ElementType({ScalarKind::BFloat16, 1}).isFloating());
    QVERIFY(!ElementType({ScalarKind::UInt8, 1}).isSigned());
    QVERIFY(ElementType({ScalarKind::Int64, 1}).isSigned());
}

void TestElementType::numpyDescriptors()
{
    QCOMPARE(numpyDescr(ScalarKind::Float32), std::string("<f4"));
    QCOMPARE(numpyDescr(ScalarKind::Int64), std::string("<i8"));
    QCOMPARE(numpyDescr(ScalarKind::Float16), std::string("<f2"));
    QCOMPARE(numpyDescr(ScalarKind::UInt8), std::string("|u1"));
    QCOMPARE(numpyDescr(ScalarKind::Bool), std::string("|b1"));
    QCOMPARE(numpyDescr(ScalarKind::BFloat16), std::string());
}

CUWB_TEST_GUILESS_MAIN(TestElementType)
} // namespace tst_elementtype
} // namespace

#include "tst_elementtype.moc"
