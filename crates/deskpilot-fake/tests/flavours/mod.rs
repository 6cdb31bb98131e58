//! Runs a test file's tests on both flavours of the fake: `at_spi::name` and `uia::name`
//! call `name(Flavour::AtSpi)` and `name(Flavour::Uia)` (the file imports `Flavour`).

macro_rules! on_both_flavours {
    ($($name:ident),* $(,)?) => {
        mod at_spi {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Flavour::AtSpi).await
            })*
        }
        mod uia {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Flavour::Uia).await
            })*
        }
    };
}
