---@meta
-- Types of the options a picker takes, in LuaCATS annotations.

---@alias SortOrder "ascending"|"descending"

---@class PickerOptions
---@field prompt? string the prompt's title
---@field sort? SortOrder how results are ordered
---@field limit? integer at most this many results

---@class (exact) PickerLayout
---@field width number
---@field height number

--- The defaults every picker starts from.
---@class PickerDefaults: PickerOptions
local Defaults = { sort = "ascending", limit = 100 }

--- Merges opts over the defaults.
---@param opts? PickerOptions
---@return PickerOptions
function Defaults.merge(opts)
  return vim.tbl_deep_extend("force", {}, Defaults, opts or {})
end

return Defaults
