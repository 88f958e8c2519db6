import { Box, Paper, Typography } from "@mui/material";
import type { ReactNode } from "react";

interface ChartCardProps {
  title: string;
  subtitle?: string;
  testId: string;
  children: ReactNode;
}

/** A titled panel around one chart; the figure is named by its title for assistive technology. */
export function ChartCard({ title, subtitle, testId, children }: ChartCardProps) {
  const titleId = `${testId}-title`;
  return (
    <Paper
      variant="outlined"
      component="figure"
      aria-labelledby={titleId}
      data-testid={testId}
      sx={{ m: 0, p: 2, display: "flex", flexDirection: "column", minWidth: 0 }}
    >
      <Box sx={{ mb: 1 }}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        )}
      </Box>
      {children}
    </Paper>
  );
}
