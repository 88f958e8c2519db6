import ChatIcon from "@mui/icons-material/ForumOutlined";
import { Box, Stack, Typography } from "@mui/material";
import type { LogoTarget } from "@atende/contracts";
import { useState, type ReactNode } from "react";
import { useLogos } from "../api/logos";

/** The built-in brand: shown where no logo was uploaded. */
export function DefaultBrand() {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", justifyContent: "center" }}>
      <ChatIcon color="primary" fontSize="large" aria-hidden />
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
        Atende
      </Typography>
    </Stack>
  );
}

interface BrandLogoProps {
  /** Where it shows: the login page, the sign-up page, the shell. */
  target: Extract<LogoTarget, "login" | "signup" | "interno">;
  /** The image's height in px at most. */
  maxHeight?: number;
  /** What shows when no logo was uploaded (or it cannot load); the built-in brand unless said. */
  fallback?: ReactNode;
}

/**
 * The platform's logo for a place, as the super user uploaded it (Settings, Logo tab); the page
 * updates as soon as the logos' cache does (an upload writes it).
 */
export function BrandLogo({ target, maxHeight = 72, fallback = <DefaultBrand /> }: BrandLogoProps) {
  const { data, isPending } = useLogos();
  const [failed, setFailed] = useState<string | null>(null);
  const url = data?.[target];
  // While the logos load, keep the place (no flash of the built-in brand before the uploaded one).
  if (isPending) return <Box sx={{ height: maxHeight }} aria-hidden />;
  if (!url || failed === url) return <>{fallback}</>;
  return (
    <Box
      component="img"
      src={url}
      alt="Logo"
      data-logo={target}
      onError={() => setFailed(url)}
      sx={{
        display: "block",
        alignSelf: "center",
        mx: "auto",
        maxHeight,
        maxWidth: "100%",
        objectFit: "contain",
      }}
    />
  );
}
