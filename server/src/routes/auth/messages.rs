//! The answers of `/api/auth/*` that several flows share (Spanish, as on the wire).

pub const MSG_TERMS: &str = "Debes aceptar los Términos y Condiciones y el Aviso de Privacidad";
pub const MSG_VERIFY_REQUIRED: &str = "Token de verificación requerido";
pub const MSG_VERIFY_INVALID: &str = "Token de verificación inválido o expirado";
pub const MSG_USER_NOT_FOUND: &str = "Usuario no encontrado";
pub const MSG_INVALID_CREDENTIALS: &str = "Correo electrónico o contraseña incorrectos";
pub const MSG_EMAIL_NOT_VERIFIED: &str =
    "Debes verificar tu correo electrónico antes de iniciar sesión";
pub const MSG_REGISTERED: &str =
    "Registro exitoso. Revisa tu correo electrónico para verificar tu cuenta";
pub const MSG_RESEND: &str = "Si la cuenta existe y está pendiente de verificación, \
    recibirás un nuevo correo de verificación";
pub const MSG_FORGOT: &str =
    "Si el correo está registrado, recibirás un enlace para restablecer tu contraseña";
pub const MSG_RESET_INVALID: &str = "Token de restablecimiento inválido o expirado";
