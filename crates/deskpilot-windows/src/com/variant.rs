//! `VARIANT`s in and out: an owned one cleared when dropped, read as the Rust value its
//! type holds (anything else, `ReservedNotSupportedValue` included, reads as unknown).

use windows::Win32::Foundation::VARIANT_BOOL;
use windows::Win32::System::Com::SAFEARRAY;
use windows::Win32::System::Ole::SafeArrayCreateVector;
use windows::Win32::System::Variant::{
    VARENUM, VARIANT, VT_ARRAY, VT_BOOL, VT_BSTR, VT_I4, VT_R8, VariantClear,
};

use crate::raw::UiaError;

/// A `VARIANT` this code owns: cleared (its string or array freed) when dropped.
pub struct Owned(pub VARIANT);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: the variant was filled by COM or by this module, and is cleared once.
        unsafe {
            let _ = VariantClear(&mut self.0);
        }
    }
}

impl Owned {
    fn vt(&self) -> VARENUM {
        // SAFETY: every VARIANT starts with its type tag.
        unsafe { self.0.Anonymous.Anonymous.vt }
    }

    pub fn bool(&self) -> Option<bool> {
        // SAFETY: the tag says which member is set.
        (self.vt() == VT_BOOL)
            .then(|| unsafe { self.0.Anonymous.Anonymous.Anonymous.boolVal.0 != 0 })
    }

    pub fn i32(&self) -> Option<i32> {
        // SAFETY: the tag says which member is set.
        (self.vt() == VT_I4).then(|| unsafe { self.0.Anonymous.Anonymous.Anonymous.lVal })
    }

    pub fn f64(&self) -> Option<f64> {
        match self.vt() {
            // SAFETY: the tag says which member is set.
            VT_R8 => Some(unsafe { self.0.Anonymous.Anonymous.Anonymous.dblVal }),
            VT_I4 => self.i32().map(f64::from),
            _ => None,
        }
    }

    pub fn string(&self) -> Option<String> {
        // SAFETY: the tag says which member is set.
        (self.vt() == VT_BSTR)
            .then(|| unsafe { self.0.Anonymous.Anonymous.Anonymous.bstrVal.to_string() })
    }

    /// A one-dimensional array of 32-bit integers (a `RuntimeId`).
    pub fn i32s(&self) -> Option<Vec<i32>> {
        self.array(VT_I4)
    }

    /// A one-dimensional array of doubles (a `BoundingRectangle`).
    pub fn f64s(&self) -> Option<Vec<f64>> {
        self.array(VT_R8)
    }

    fn array<T: Copy>(&self, element: VARENUM) -> Option<Vec<T>> {
        if self.vt() != VARENUM(VT_ARRAY.0 | element.0) {
            return None;
        }
        // SAFETY: the tag says the member is an array of `element`s, which `T` matches; a
        // one-dimensional array's data is contiguous.
        unsafe {
            let array: *mut SAFEARRAY = self.0.Anonymous.Anonymous.Anonymous.parray;
            let array = array.as_ref()?;
            if array.cDims != 1 || array.pvData.is_null() {
                return None;
            }
            let count = array.rgsabound[0].cElements as usize;
            Some(std::slice::from_raw_parts(array.pvData as *const T, count).to_vec())
        }
    }
}

fn tagged(vt: VARENUM, fill: impl FnOnce(&mut VARIANT)) -> VARIANT {
    let mut variant = VARIANT::default();
    // SAFETY: writes the tag, then the member it names.
    unsafe {
        (*variant.Anonymous.Anonymous).vt = vt;
    }
    fill(&mut variant);
    variant
}

pub fn of_i32(n: i32) -> Owned {
    // SAFETY: the member the tag names.
    Owned(tagged(VT_I4, |v| unsafe {
        (*v.Anonymous.Anonymous).Anonymous.lVal = n;
    }))
}

pub fn of_bool(b: bool) -> Owned {
    // SAFETY: the member the tag names.
    Owned(tagged(VT_BOOL, |v| unsafe {
        (*v.Anonymous.Anonymous).Anonymous.boolVal = VARIANT_BOOL(if b { -1 } else { 0 });
    }))
}

/// An array of 32-bit integers (to search by `RuntimeId`).
pub fn of_i32s(values: &[i32]) -> Result<Owned, UiaError> {
    // SAFETY: a fresh vector of `values.len()` i32s, filled before the variant owns it.
    unsafe {
        let array = SafeArrayCreateVector(VT_I4, 0, values.len() as u32);
        let data = array.as_ref().map(|a| a.pvData).filter(|p| !p.is_null());
        let Some(data) = data else {
            return Err(UiaError::Com {
                hresult: crate::error::hresult::E_OUTOFMEMORY,
                message: "SafeArrayCreateVector failed".into(),
            });
        };
        std::ptr::copy_nonoverlapping(values.as_ptr(), data as *mut i32, values.len());
        Ok(Owned(tagged(VARENUM(VT_ARRAY.0 | VT_I4.0), |v| {
            (*v.Anonymous.Anonymous).Anonymous.parray = array;
        })))
    }
}
