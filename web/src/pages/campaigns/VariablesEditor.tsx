import { addCampaignVariable, type CampaignVariable } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import {
  Button,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface VariablesEditorProps {
  variables: CampaignVariable[];
  onChange(variables: CampaignVariable[]): void;
}

/** The custom variables: a key and its value; one is added only when its key is new (the spec). */
export function VariablesEditor({ variables, onChange }: VariablesEditorProps) {
  const { t } = useTranslation();
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);

  function add() {
    const trimmed = key.trim().replace(/^\{|\}$/g, "");
    if (!trimmed) return setError(t("campaigns.config.keyRequired"));
    const next = addCampaignVariable(variables, { key: trimmed, value });
    if (next === variables) return setError(t("campaigns.config.keyTaken"));
    onChange(next);
    setKey("");
    setValue("");
    setError(null);
  }

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={1.5}
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
        sx={{ alignItems: { sm: "flex-start" } }}
      >
        <TextField
          size="small"
          id="campaign-variable-key"
          label={t("campaigns.config.key")}
          value={key}
          onChange={(event) => {
            setKey(event.target.value);
            setError(null);
          }}
          error={error !== null}
          helperText={error ?? " "}
        />
        <TextField
          size="small"
          id="campaign-variable-value"
          label={t("campaigns.config.value")}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          sx={{ flex: 1 }}
          helperText=" "
        />
        <Button type="submit" variant="outlined" startIcon={<AddIcon />} sx={{ whiteSpace: "nowrap" }}>
          {t("campaigns.config.addVariable")}
        </Button>
      </Stack>
      {variables.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("campaigns.config.noVariables")}
        </Typography>
      ) : (
        <Table size="small" aria-label={t("campaigns.config.variablesTitle")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("campaigns.config.key")}</TableCell>
              <TableCell>{t("campaigns.config.value")}</TableCell>
              <TableCell align="right" />
            </TableRow>
          </TableHead>
          <TableBody>
            {variables.map((variable) => (
              <TableRow key={variable.key}>
                <TableCell sx={{ fontFamily: "monospace" }}>{`{${variable.key}}`}</TableCell>
                <TableCell>{variable.value}</TableCell>
                <TableCell align="right">
                  <IconButton
                    size="small"
                    aria-label={t("campaigns.config.removeVariable", { key: variable.key })}
                    onClick={() => onChange(variables.filter((v) => v.key !== variable.key))}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
