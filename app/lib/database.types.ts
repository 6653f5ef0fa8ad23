// Generated from the migrations by `npm run stack -- gen types` (stack/gen): don't edit; `npm run check:types` fails when it is out of date.
export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  public: {
    Tables: {
      attachments: {
        Row: {
          content_type: string
          created_at: string
          file_name: string
          id: string
          object_path: string
          size_bytes: number
          task_id: string
          uploaded_by: string | null
        }
        Insert: {
          content_type?: string
          created_at?: string
          file_name: string
          id?: string
          object_path: string
          size_bytes: number
          task_id: string
          uploaded_by?: string | null
        }
        Update: {
          content_type?: string
          created_at?: string
          file_name?: string
          id?: string
          object_path?: string
          size_bytes?: number
          task_id?: string
          uploaded_by?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "attachments_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "attachments_uploaded_by_fkey"
            columns: ["uploaded_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      calendar_feeds: {
        Row: {
          created_at: string
          selector: string
          token_hash: string
          user_id: string
        }
        Insert: {
          created_at?: string
          selector: string
          token_hash: string
          user_id: string
        }
        Update: {
          created_at?: string
          selector?: string
          token_hash?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "calendar_feeds_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: true
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      comments: {
        Row: {
          author_id: string | null
          body: string
          created_at: string
          edited_at: string | null
          id: string
          task_id: string
        }
        Insert: {
          author_id?: string | null
          body: string
          created_at?: string
          edited_at?: string | null
          id?: string
          task_id: string
        }
        Update: {
          author_id?: string | null
          body?: string
          created_at?: string
          edited_at?: string | null
          id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "comments_author_id_fkey"
            columns: ["author_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comments_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      due_reminders: {
        Row: {
          created_at: string
          day: string
          due_on: string
          recipient_id: string
          task_id: string
        }
        Insert: {
          created_at?: string
          day: string
          due_on: string
          recipient_id: string
          task_id: string
        }
        Update: {
          created_at?: string
          day?: string
          due_on?: string
          recipient_id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "due_reminders_recipient_id_fkey"
            columns: ["recipient_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "due_reminders_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      invitations: {
        Row: {
          accepted_at: string | null
          created_at: string
          email: string
          expires_at: string
          id: string
          invited_by: string | null
          revoked_at: string | null
          role: Database["public"]["Enums"]["team_role"]
          team_id: string
          token_hash: string
        }
        Insert: {
          accepted_at?: string | null
          created_at?: string
          email: string
          expires_at?: string
          id?: string
          invited_by?: string | null
          revoked_at?: string | null
          role?: Database["public"]["Enums"]["team_role"]
          team_id: string
          token_hash: string
        }
        Update: {
          accepted_at?: string | null
          created_at?: string
          email?: string
          expires_at?: string
          id?: string
          invited_by?: string | null
          revoked_at?: string | null
          role?: Database["public"]["Enums"]["team_role"]
          team_id?: string
          token_hash?: string
        }
        Relationships: [
          {
            foreignKeyName: "invitations_invited_by_fkey"
            columns: ["invited_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "invitations_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      profiles: {
        Row: {
          avatar_path: string | null
          created_at: string
          display_name: string
          id: string
          time_zone: string
          updated_at: string
          username: string
        }
        Insert: {
          avatar_path?: string | null
          created_at?: string
          display_name: string
          id: string
          time_zone?: string
          updated_at?: string
          username: string
        }
        Update: {
          avatar_path?: string | null
          created_at?: string
          display_name?: string
          id?: string
          time_zone?: string
          updated_at?: string
          username?: string
        }
        Relationships: []
      }
      projects: {
        Row: {
          archived_at: string | null
          created_at: string
          description: string
          id: string
          key: string
          name: string
          next_task_number: number
          team_id: string
        }
        Insert: {
          archived_at?: string | null
          created_at?: string
          description?: string
          id?: string
          key: string
          name: string
          next_task_number?: number
          team_id: string
        }
        Update: {
          archived_at?: string | null
          created_at?: string
          description?: string
          id?: string
          key?: string
          name?: string
          next_task_number?: number
          team_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "projects_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      storage_cleanup: {
        Row: { bucket_id: string; object_path: string; queued_at: string }
        Insert: { bucket_id: string; object_path: string; queued_at?: string }
        Update: { bucket_id?: string; object_path?: string; queued_at?: string }
        Relationships: []
      }
      tasks: {
        Row: {
          assignee_id: string | null
          created_at: string
          created_by: string | null
          description: string
          due_on: string | null
          due_on_set_at: string | null
          due_on_set_by: string | null
          id: string
          labels: string[]
          number: number
          position: number
          priority: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence: string | null
          search: unknown | null
          status: Database["public"]["Enums"]["task_status"]
          successor_id: string | null
          title: string
          updated_at: string
        }
        Insert: {
          assignee_id?: string | null
          created_at?: string
          created_by?: string | null
          description?: string
          due_on?: string | null
          due_on_set_at?: string | null
          due_on_set_by?: string | null
          id?: string
          labels?: string[]
          number: number
          position?: number
          priority?: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence?: string | null
          search?: unknown | null
          status?: Database["public"]["Enums"]["task_status"]
          successor_id?: string | null
          title: string
          updated_at?: string
        }
        Update: {
          assignee_id?: string | null
          created_at?: string
          created_by?: string | null
          description?: string
          due_on?: string | null
          due_on_set_at?: string | null
          due_on_set_by?: string | null
          id?: string
          labels?: string[]
          number?: number
          position?: number
          priority?: Database["public"]["Enums"]["task_priority"]
          project_id?: string
          recurrence?: string | null
          search?: unknown | null
          status?: Database["public"]["Enums"]["task_status"]
          successor_id?: string | null
          title?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "tasks_assignee_id_fkey"
            columns: ["assignee_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_due_on_set_by_fkey"
            columns: ["due_on_set_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_successor_id_fkey"
            columns: ["successor_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      team_members: {
        Row: {
          joined_at: string
          role: Database["public"]["Enums"]["team_role"]
          team_id: string
          user_id: string
        }
        Insert: {
          joined_at?: string
          role?: Database["public"]["Enums"]["team_role"]
          team_id: string
          user_id: string
        }
        Update: {
          joined_at?: string
          role?: Database["public"]["Enums"]["team_role"]
          team_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "team_members_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "team_members_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      teams: {
        Row: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          slug: string
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          id?: string
          name: string
          slug: string
        }
        Update: {
          created_at?: string
          created_by?: string | null
          id?: string
          name?: string
          slug?: string
        }
        Relationships: [
          {
            foreignKeyName: "teams_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
    }
    Views: { [_ in never]: never }
    Functions: {
      accept_invitation: {
        Args: { token: string }
        Returns: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          slug: string
        }
      }
      attachment_task_id: { Args: { object_name: string }; Returns: string }
      attachments_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      base64url: { Args: { bytes: string }; Returns: string }
      board_view: {
        Args: {
          team_slug: string
          project_key: string
          assignee?: string
          label?: string
          q?: string
          limits?: Json
        }
        Returns: Json
      }
      calendar_feed: { Args: { token: string }; Returns: Json }
      check_team_has_one_owner: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      comments_mark_edited: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      create_team: {
        Args: { name: string; slug: string }
        Returns: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          slug: string
        }
      }
      day_of_month: { Args: { first: string; d: number }; Returns: string }
      decline_invitation: { Args: { token: string }; Returns: undefined }
      digests_equal: { Args: { a: string; b: string }; Returns: boolean }
      handle_new_user: { Args: Record<PropertyKey, never>; Returns: unknown }
      handle_new_user_time_zone: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      handle_user_metadata_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      handle_user_time_zone_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      has_project_role: {
        Args: { project_id: string; min_role: string; writable?: boolean }
        Returns: boolean
      }
      has_role: {
        Args: { team_id: string; min_role: string }
        Returns: boolean
      }
      has_task_role: {
        Args: { task_id: string; min_role: string; writable?: boolean }
        Returns: boolean
      }
      invitation_preview: {
        Args: { token: string }
        Returns: {
          team_name: string
          team_slug: string
          inviter_name: string
          role: Database["public"]["Enums"]["team_role"]
          email: string
          status: string
          expires_at: string
        }[]
      }
      is_member: { Args: { team_id: string }; Returns: boolean }
      is_recurrence: { Args: { rule: string }; Returns: boolean }
      is_time_zone: { Args: { name: string }; Returns: boolean }
      leave_team: { Args: { team_id: string }; Returns: undefined }
      metadata_time_zone: { Args: { meta: Json }; Returns: string }
      move_task: {
        Args: { task_id: string; status: string; position?: number }
        Returns: {
          assignee_id: string | null
          created_at: string
          created_by: string | null
          description: string
          due_on: string | null
          due_on_set_at: string | null
          due_on_set_by: string | null
          id: string
          labels: string[]
          number: number
          position: number
          priority: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence: string | null
          search: unknown | null
          status: Database["public"]["Enums"]["task_status"]
          successor_id: string | null
          title: string
          updated_at: string
        }
      }
      my_invitations: {
        Args: Record<PropertyKey, never>
        Returns: {
          id: string
          team_name: string
          inviter_name: string
          role: Database["public"]["Enums"]["team_role"]
          created_at: string
          expires_at: string
        }[]
      }
      my_project_ids: { Args: Record<PropertyKey, never>; Returns: string[] }
      next_due_date: { Args: { rule: string; after: string }; Returns: string }
      profiles_check_time_zone: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      queue_attachment_file_removal: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      queue_avatar_file_removal: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      remind_due_tasks: { Args: { run_at?: string }; Returns: number }
      reset_calendar_feed: { Args: Record<PropertyKey, never>; Returns: string }
      search_tasks: {
        Args: { query: string; limit?: number }
        Returns: {
          id: string
          project_id: string
          number: number
          title: string
          status: Database["public"]["Enums"]["task_status"]
          priority: Database["public"]["Enums"]["task_priority"]
          assignee_id: string
          due_on: string
          labels: string[]
          updated_at: string
          project_key: string
          project_name: string
          project_archived: boolean
          team_id: string
          team_slug: string
          team_name: string
          rank: number
        }[]
      }
      set_updated_at: { Args: Record<PropertyKey, never>; Returns: unknown }
      shares_team_with: { Args: { user_id: string }; Returns: boolean }
      sync_mfa_enrolled: { Args: Record<PropertyKey, never>; Returns: unknown }
      task_labels_are_valid: { Args: { labels: string[] }; Returns: boolean }
      task_panel: {
        Args: {
          team_slug: string
          project_key: string
          task_number: number
          before_created_at?: string
          before_id?: string
          page_size?: number
        }
        Returns: Json
      }
      tasks_after_delete: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_check_assignee: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_note_due_on: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_repeat: { Args: Record<PropertyKey, never>; Returns: unknown }
      team_has_member_email: {
        Args: { team_id: string; email: string }
        Returns: boolean
      }
      team_members_after_delete: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      team_overview: { Args: { team_id: string }; Returns: Json }
      transfer_ownership: {
        Args: { team_id: string; new_owner_id: string }
        Returns: undefined
      }
    }
    Enums: {
      task_priority: "none" | "low" | "medium" | "high" | "urgent"
      task_status: "backlog" | "todo" | "in_progress" | "done" | "canceled"
      team_role: "viewer" | "member" | "admin" | "owner"
    }
    CompositeTypes: { [_ in never]: never }
  }
}

type DefaultSchema = Database[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof Database },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof (Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        Database[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof Database }
  ? (Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      Database[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema["Tables"] | { schema: keyof Database },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof Database }
  ? Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema["Tables"] | { schema: keyof Database },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof Database }
  ? Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    keyof DefaultSchema["Enums"] | { schema: keyof Database },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof Database }
  ? Database[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    keyof DefaultSchema["CompositeTypes"] | { schema: keyof Database },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof Database }
  ? Database[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {
      task_priority: ["none", "low", "medium", "high", "urgent"],
      task_status: ["backlog", "todo", "in_progress", "done", "canceled"],
      team_role: ["viewer", "member", "admin", "owner"],
    },
  },
} as const
